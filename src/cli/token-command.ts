/**
 * `bnity token create|list|revoke` (SPEC X1, A4): through the running service when there
 * is one, else straight on the database in the data directory.
 * @module
 */
import { HubError } from '../errors.js';
import type { Db, OpenDb } from '../storage/create-db.js';
import type { TokenInfo } from '../storage/token-repo.js';
import { formatTable } from './format-table.js';
import { resolveTarget, type Target, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** Run `fn` on the database of the target's home, closing it after. */
async function onDatabase<T>(target: Target, fn: (db: Db, store: OpenDb) => Promise<T>): Promise<T> {
  const { createDb } = await import('../storage/create-db.js');
  const { targetDatabaseUrl } = await import('./target-database-url.js');
  const store = await createDb({ url: await targetDatabaseUrl(target) });
  try {
    return await fn(store.db, store);
  } finally {
    await store.close();
  }
}

const tokenRepo = () => import('../storage/token-repo.js');

/** `bnity token create`: the token is printed once. */
export async function tokenCreate(
  flags: TargetFlags & { name: string; bot?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = await resolveTarget(flags, env);
  const bot = flags.bot ?? null;
  const { value: made } = await serviceOrFile(
    target,
    () =>
      target.client.request<{ id: string; token: string }>('POST', '/api/tokens', {
        name: flags.name,
        ...(bot ? { bot } : {}),
      }),
    async () => {
      const path = target.configPath();
      const inConfig = async () =>
        Boolean((await (await import('../config/load-config.js')).loadConfig(path, env)).bots[bot ?? '']);
      const value = await onDatabase(target, async (db) => {
        // As the API: a bot of the config file or of the registry (ADR 012).
        const inRegistry = async (slug: string) =>
          (await (await import('../storage/bot-repo.js')).findBotBySlug(db, slug)) !== null;
        if (bot && !(await inConfig()) && !(await inRegistry(bot)))
          throw new HubError('bad_request', `bot "${bot}" does not exist (neither in ${path} nor in the registry)`);
        return (await tokenRepo()).createToken(db, { name: flags.name, bot });
      });
      return { value, note: `made the token in ${target.home}` };
    },
  );
  process.stdout.write(
    target.json ? `${JSON.stringify(made)}\n` : `${made.token}\n(id ${made.id}; shown once, store it now)\n`,
  );
  return 0;
}

/** `bnity token list`: every token, never the token itself. */
export async function tokenList(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const { value: tokens } = await serviceOrFile(
    target,
    async () => (await target.client.get<{ tokens: TokenInfo[] }>('/api/tokens')).tokens,
    async () => ({
      value: await onDatabase(target, async (db) => (await tokenRepo()).listTokens(db)),
      note: `read the tokens in ${target.home}`,
    }),
  );
  const rows = tokens.map((t) => [
    t.id,
    t.name,
    t.bot ?? '-',
    t.prefix,
    t.createdAt,
    t.revokedAt ? `revoked ${t.revokedAt}` : 'live',
  ]);
  process.stdout.write(
    target.json
      ? `${JSON.stringify({ tokens }, null, 2)}\n`
      : `${formatTable(['ID', 'NAME', 'BOT', 'PREFIX', 'CREATED', 'STATE'], rows)}\n`,
  );
  return 0;
}

/** `bnity token revoke ID`. */
export async function tokenRevoke(id: string, flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  await serviceOrFile(
    target,
    () => target.client.request('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
    async () => {
      const revoked = await onDatabase(target, async (db, store) => {
        if (!(await (await tokenRepo()).revokeToken(db, id))) return false;
        if (store.postgres) await tellReplicas(store, id, env);
        return true;
      });
      if (!revoked) throw new HubError('not_found', `no live token with id "${id}"`);
      return { value: undefined, note: `revoked it in ${target.home}` };
    },
  );
  process.stdout.write(`revoked ${id}\n`);
  return 0;
}

/**
 * Cluster mode (issue 22 part 7): the running replicas are told on the fleet bus, and the
 * command ends once each forgot the token (at most a second), so it is refused everywhere then.
 */
async function tellReplicas(store: OpenDb, id: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { createFleetBus, processId, shareRevocations } = await import('../cluster/index.js');
  const log = { warn: () => undefined };
  const bus = createFleetBus({
    sql: store.postgres as NonNullable<OpenDb['postgres']>,
    replica: `cli-${processId(env)}`,
    log,
  });
  try {
    // The replicas' default staleness: the CLI does not read the config the fleet runs.
    const shared = await shareRevocations({ bus, db: store.db, log, staleAfterMs: () => 15_000 });
    await shared.announce(id);
    await shared.stop();
  } finally {
    await bus.close();
  }
}
