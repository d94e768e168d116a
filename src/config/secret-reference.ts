/**
 * `${secret:NAME}` in a stdio server's `env` values: a keystore entry (C6) the value is read
 * from at each connect, so the secret itself stays out of `boternity.json`. `bnity mcp import`
 * writes these for env values whose names look secret. `$${secret:NAME}` is the literal text.
 * @module
 */

/** A reference, with the `$` escape captured: `$1` is `$` when escaped, `$2` the name. */
const REFERENCE = /(\$?)\$\{secret:([^}]*)\}/g;

/** The reference to keystore entry `name`. */
export const secretReference = (name: string): string => `\${secret:${name}}`;

/** Whether `text` holds a reference (escaped or not). */
export const hasSecretReference = (text: string): boolean => text.includes('${secret:');

/**
 * `text` with each reference replaced by `lookup(name)` and each escape unescaped;
 * `lookup` throws for a name it cannot give.
 */
export async function replaceSecretReferences(
  text: string,
  lookup: (name: string) => Promise<string>,
): Promise<string> {
  if (!hasSecretReference(text)) return text;
  const names = new Map<string, string>();
  for (const [, escaped, name] of text.matchAll(REFERENCE))
    if (escaped !== '$' && name !== undefined && !names.has(name)) names.set(name, await lookup(name));
  return text.replace(REFERENCE, (match, escaped: string, name: string) =>
    escaped === '$' ? match.slice(1) : (names.get(name) as string),
  );
}
