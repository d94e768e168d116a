/**
 * Cross-server shadowing (SPEC X5, reported but never blocked): which other servers' tools
 * a tool's description names. The other tools are indexed once by name, and a description
 * is cut once into its words and its quoted parts, each looked up in the index: checking a
 * catalog is linear in its text and the other tools, not their product (issue 8: 2,000
 * tools took seconds with two RegExps per pair). The few names the index cannot hold
 * exactly (characters outside `[A-Za-z0-9_-]`, quotes) are still tested with those RegExps.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** One tool of another server, as a shadowing check sees it. */
export type OtherTool = { readonly server: string; readonly name: string };

/** The other tools, indexed: `find` answers for one tool of `server`. */
export type ShadowingIndex = {
  find(server: string, tool: Pick<Tool, 'name' | 'description' | 'title'>): string[];
};

const IDENT = 'A-Za-z0-9_\\-';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A bare name is specific enough to count only when it looks like an identifier, not a word. */
const identifierLike = (name: string) => /[_\-.0-9]/.test(name) || /[a-z][A-Z]/.test(name);
const tokenPattern = (name: string) => new RegExp(`(^|[^${IDENT}])${escapeRegExp(name)}($|[^${IDENT}])`, 'iu');
const quotedPattern = (name: string) => new RegExp(`[\`'"]${escapeRegExp(name)}[\`'"]`, 'u');

/** Names made of these alone are matched through the index. */
const PLAIN = /^[A-Za-z0-9_-]+$/;
/** Maximal runs of characters the patterns' class holds under `iu` (it adds U+017F and U+212A). */
const WORDS = /[A-Za-z0-9_-]+/giu;
const QUOTES = /[`'"]/g;
/** The case folding of the `iu` patterns, for a plain name or a word: ASCII lower case (U+212A lowers to k). */
const fold = (word: string) => word.toLowerCase().replaceAll('\u017f', 's');

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/**
 * Tools of other servers that a tool's description (or title) names, as `{server}__{tool}`,
 * sorted and unique. A tool counts when its public name appears, or its bare name appears as
 * a whole token and either looks like an identifier (`send_email`, `sendEmail`) or is quoted
 * (`` `send` ``, `"send"`). Tools of `server` itself, and other tools sharing this tool's own
 * name, never count.
 */
export function findShadowing(
  server: string,
  tool: Pick<Tool, 'name' | 'description' | 'title'>,
  otherTools: readonly OtherTool[],
): string[] {
  return shadowingIndex(otherTools).find(server, tool);
}

/** Index `otherTools` for {@link findShadowing} of many tools. */
export function shadowingIndex(otherTools: readonly OtherTool[]): ShadowingIndex {
  // folded public name → the tools; folded bare name (identifier-like) → the tools; exact name → the tools.
  const publicNames = new Map<string, OtherTool[]>();
  const bareNames = new Map<string, OtherTool[]>();
  const quotedNames = new Map<string, OtherTool[]>();
  const tested: { other: OtherTool; publicName: boolean; bare: boolean; quoted: boolean }[] = [];
  for (const other of otherTools) {
    const plainPublic = PLAIN.test(other.server) && PLAIN.test(other.name);
    if (plainPublic) push(publicNames, fold(`${other.server}__${other.name}`), other);
    const plainName = PLAIN.test(other.name);
    if (plainName && identifierLike(other.name)) push(bareNames, fold(other.name), other);
    // Between two quotes with none inside: the part between neighbouring quotes.
    const quotable = !/[`'"]/.test(other.name);
    if (quotable) push(quotedNames, other.name, other);
    if (!plainPublic || !plainName || !quotable)
      tested.push({
        other,
        publicName: !plainPublic,
        bare: !plainName && identifierLike(other.name),
        quoted: !quotable,
      });
  }
  return {
    find(server, tool) {
      const text = [tool.description, tool.title].filter(Boolean).join('\n');
      if (!text) return [];
      const found = new Set<string>();
      // Tools of `server` itself never count.
      const add = (other: OtherTool) => other.server !== server && found.add(`${other.server}__${other.name}`);
      // A tool of the same name elsewhere is not named by naming oneself.
      const addOther = (other: OtherTool) => other.name !== tool.name && add(other);
      for (const [word] of text.matchAll(WORDS)) {
        const key = fold(word);
        for (const other of publicNames.get(key) ?? []) add(other);
        for (const other of bareNames.get(key) ?? []) addOther(other);
      }
      let last = -1;
      for (const { index } of text.matchAll(QUOTES)) {
        if (last >= 0) for (const other of quotedNames.get(text.slice(last + 1, index)) ?? []) addOther(other);
        last = index;
      }
      for (const { other, publicName, bare, quoted } of tested) {
        if (publicName && tokenPattern(`${other.server}__${other.name}`).test(text)) add(other);
        if (other.name === tool.name) continue;
        if ((bare && tokenPattern(other.name).test(text)) || (quoted && quotedPattern(other.name).test(text)))
          add(other);
      }
      return [...found].sort();
    },
  };
}
