/**
 * `bnity mcp credential set|list|remove`: edit the keystore (C6) directly; no running
 * service is needed. The service reads the keystore at each connect, so a new secret
 * applies at the server's next reconnect. `set` reads the secret from stdin, never argv.
 * @module
 */
import { resolveHome } from '../config/resolve-paths.js';
import { UsageError } from '../errors.js';
import { isCredentialName, openKeystore } from '../storage/keystore.js';

type HomeFlags = { home?: string };

const keystoreOf = (flags: HomeFlags, env: NodeJS.ProcessEnv) =>
  openKeystore({ home: resolveHome({ ...(flags.home ? { home: flags.home } : {}), env }), env });

/** `bnity mcp credential set NAME`: the secret comes from `stdin`, never from argv. */
export async function credentialSet(
  name: string,
  flags: HomeFlags,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  checkName(name);
  const keystore = await keystoreOf(flags, env);
  if ((stdin as { isTTY?: boolean }).isTTY) process.stderr.write(`Secret for "${name}" (end with Ctrl-D): `);
  const secret = trimNewline(await readAll(stdin));
  if (secret === '') throw new UsageError(`refusing an empty secret for "${name}": pipe the secret into stdin`);
  await keystore.set(name, secret);
  process.stdout.write(`saved credential "${name}" in ${keystore.path}\n`);
  return 0;
}

/** `bnity mcp credential list`: the names, never the secrets. */
export async function credentialList(flags: HomeFlags & { json?: boolean }, env: NodeJS.ProcessEnv): Promise<number> {
  const home = resolveHome({ ...(flags.home ? { home: flags.home } : {}), env });
  const names = await (await openKeystore({ home, env })).names();
  if (flags.json) process.stdout.write(`${JSON.stringify({ credentials: names }, null, 2)}\n`);
  else if (names.length > 0) process.stdout.write(`${names.join('\n')}\n`);
  else process.stderr.write(`bnity: no credentials in ${home}\n`);
  return 0;
}

/** `bnity mcp credential remove NAME`. */
export async function credentialRemove(name: string, flags: HomeFlags, env: NodeJS.ProcessEnv): Promise<number> {
  checkName(name);
  const keystore = await keystoreOf(flags, env);
  if (!(await keystore.remove(name))) {
    process.stderr.write(`bnity: credential "${name}" is not in the keystore (${keystore.path})\n`);
    return 1;
  }
  process.stdout.write(`removed credential "${name}"\n`);
  return 0;
}

function checkName(name: string): void {
  if (!isCredentialName(name))
    throw new UsageError(`invalid credential name ${JSON.stringify(name)}: use 1 to 64 of A-Z a-z 0-9 _ . -`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Drop one trailing newline (`echo` adds it); other whitespace is part of the secret. */
function trimNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
