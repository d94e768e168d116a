/**
 * `bnity token create|list|revoke` (SPEC X1, A4): through the running service when there
 * is one, else straight on the database in the data directory.
 * @module
 */
import { loadConfig } from '../config/load-config.js';
import { resolveConfigPath, resolveHome } from '../config/resolve-paths.js';
import { HubError } from '../errors.js';
import { createDb, databaseUrlFor } from '../storage/create-db.js';
import { createToken, listTokens, revokeToken, type TokenInfo } from '../storage/token-repo.js';
import { formatTable } from './format-table.js';
import { parseFlags } from './parse-flags.js';
import { createServiceClient, isUnreachable } from './service-client.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity token create [--name NAME] [--bot SLUG] [--json]
       bnity token list [--json]
       bnity token revoke ID
  common: [--url URL] [--home DIR] [--config PATH]`;

type Offline = {
  create(name: string, bot: string | null): Promise<{ id: string; token: string }>;
  list(): Promise<TokenInfo[]>;
  revoke(id: string): Promise<void>;
};

/** The same three verbs on the database, for when no service answers. */
async function offline(home: string, config?: string): Promise<Offline & { close(): Promise<void> }> {
  const store = await createDb({ url: databaseUrlFor(home) });
  return {
    async create(name, bot) {
      if (bot) {
        const { path } = resolveConfigPath({ home, ...(config ? { config } : {}) });
        if (!(await loadConfig(path)).bots[bot])
          throw new HubError('bad_request', `bot "${bot}" is not configured in ${path}`);
      }
      return createToken(store.db, { name, bot });
    },
    list: () => listTokens(store.db),
    async revoke(id) {
      if (!(await revokeToken(store.db, id))) throw new HubError('not_found', `no live token with id "${id}"`);
    },
    close: () => store.close(),
  };
}

/** Run `bnity token …`. */
export async function tokenCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    process.stdout.write(`${HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (!['create', 'list', 'revoke'].includes(sub))
    throw new UsageError(`unknown subcommand "token ${sub}": run 'bnity token --help'`);
  const positional = sub === 'revoke' ? rest[0] : undefined;
  if (sub === 'revoke' && (!positional || positional.startsWith('-')))
    throw new UsageError("'bnity token revoke' needs the token ID");
  const values = parseFlags(
    sub === 'revoke' ? rest.slice(1) : rest,
    {
      name: { type: 'string' },
      bot: { type: 'string' },
      json: { type: 'boolean' },
      url: { type: 'string' },
      home: { type: 'string' },
      config: { type: 'string' },
    },
    'token',
  );
  const home = resolveHome(values.home ? { home: values.home } : {});
  const client = await createServiceClient({ home, ...(values.url ? { url: values.url } : {}) });
  const viaService: Offline = {
    create: (name, bot) => client.request('POST', '/api/tokens', { name, ...(bot ? { bot } : {}) }),
    list: async () => (await client.get<{ tokens: TokenInfo[] }>('/api/tokens')).tokens,
    revoke: (id) => client.request('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
  };
  const run = async (verbs: Offline) => {
    if (sub === 'create') {
      const made = await verbs.create(values.name ?? 'cli', values.bot ?? null);
      process.stdout.write(
        values.json ? `${JSON.stringify(made)}\n` : `${made.token}\n(id ${made.id}; shown once, store it now)\n`,
      );
    } else if (sub === 'list') {
      const tokens = await verbs.list();
      const rows = tokens.map((t) => [
        t.id,
        t.name,
        t.bot ?? '-',
        t.prefix,
        t.createdAt,
        t.revokedAt ? `revoked ${t.revokedAt}` : 'live',
      ]);
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ tokens }, null, 2)}\n`
          : `${formatTable(['ID', 'NAME', 'BOT', 'PREFIX', 'CREATED', 'STATE'], rows)}\n`,
      );
    } else {
      await verbs.revoke(positional as string);
      process.stdout.write(`revoked ${positional}\n`);
    }
  };
  try {
    await run(viaService);
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const db = await offline(home, values.config);
    try {
      await run(db);
    } finally {
      await db.close();
    }
  }
  return 0;
}
