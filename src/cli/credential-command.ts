/**
 * `bnity mcp credential set|list|remove`: edit the keystore (C6) directly; no running
 * service is needed. The service reads the keystore at each connect, so a new secret
 * applies at the server's next reconnect. `set` reads the secret from stdin, never argv.
 * @module
 */
import { parseArgs } from 'node:util';
import { resolveHome } from '../config/resolve-paths.js';
import { isCredentialName, type Keystore, openKeystore } from '../storage/keystore.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: printf %s "$SECRET" | bnity mcp credential set NAME [--home DIR]
       bnity mcp credential list [--json] [--home DIR]
       bnity mcp credential remove NAME [--home DIR]

A server with "credentialKey": "NAME" sends Authorization: Bearer <secret>.
Key: BOTERNITY_KEYSTORE_KEY (64 hex characters or base64 of 32 bytes), else <home>/keystore.key.`;

/** Run `bnity mcp credential …`; `stdin` is where `set` reads the secret. */
export async function credentialCommand(
  argv: readonly string[],
  io: { stdin?: NodeJS.ReadableStream; env?: NodeJS.ProcessEnv } = {},
): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    process.stdout.write(`${HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'set' && sub !== 'list' && sub !== 'remove')
    throw new UsageError(`unknown subcommand "mcp credential ${sub}": run 'bnity mcp credential --help'`);
  const { values, positionals } = parse(rest, sub === 'list');
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const env = io.env ?? process.env;
  const home = resolveHome({ ...(values.home ? { home: values.home } : {}), env });
  if (sub === 'list') {
    if (positionals.length > 0)
      throw new UsageError(`unexpected argument "${positionals[0]}": run 'bnity mcp credential --help'`);
    const names = await (await openKeystore({ home, env })).names();
    if (values.json) process.stdout.write(`${JSON.stringify({ credentials: names }, null, 2)}\n`);
    else if (names.length > 0) process.stdout.write(`${names.join('\n')}\n`);
    else process.stderr.write(`bnity: no credentials in ${home}\n`);
    return 0;
  }
  const name = oneName(sub, positionals);
  const keystore: Keystore = await openKeystore({ home, env });
  if (sub === 'remove') {
    if (!(await keystore.remove(name))) {
      process.stderr.write(`bnity: credential "${name}" is not in the keystore (${keystore.path})\n`);
      return 1;
    }
    process.stdout.write(`removed credential "${name}"\n`);
    return 0;
  }
  const stdin = io.stdin ?? process.stdin;
  if ((stdin as { isTTY?: boolean }).isTTY) process.stderr.write(`Secret for "${name}" (end with Ctrl-D): `);
  const secret = trimNewline(await readAll(stdin));
  if (secret === '') throw new UsageError(`refusing an empty secret for "${name}": pipe the secret into stdin`);
  await keystore.set(name, secret);
  process.stdout.write(`saved credential "${name}" in ${keystore.path}\n`);
  return 0;
}

function parse(argv: readonly string[], list: boolean) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        home: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...(list ? { json: { type: 'boolean' as const } } : {}),
      },
      strict: true,
      allowPositionals: true,
    }) as { values: { home?: string; json?: boolean; help?: boolean }; positionals: string[] };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; run 'bnity mcp credential --help'`);
  }
}

function oneName(sub: string, positionals: readonly string[]): string {
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError(`missing NAME: bnity mcp credential ${sub} NAME`);
  if (extra !== undefined)
    throw new UsageError(
      `unexpected argument "${extra}"${sub === 'set' ? ': the secret is read from stdin' : ''}; run 'bnity mcp credential --help'`,
    );
  if (!isCredentialName(name))
    throw new UsageError(`invalid credential name ${JSON.stringify(name)}: use 1 to 64 of A-Z a-z 0-9 _ . -`);
  return name;
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
