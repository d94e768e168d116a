/**
 * Dependencies of the bots for in-process tests: a migrated `:memory:` database, a real
 * event bus, a quiet logger, credentials from a plain map, and the given tool port.
 * @module
 */
import type { BotDeps } from '../../src/bots/bot-deps.js';
import { type BotLimits, botLimits } from '../../src/bots/bot-limits.js';
import type { BotChange, BotToolCaller } from '../../src/bots/ports.js';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { testLogger } from './fixtures.js';

/** A port for tests that never call tools: no tools, and any call is refused. */
export const NO_TOOLS: BotToolCaller = {
  listTools: async () => [],
  callTool: async (_slug, name) => {
    throw new Error(`no tool "${name}" here`);
  },
};

/** Test deps over a fresh database; `close()` it after the test (or file). */
export async function createTestBotDeps({
  tools = NO_TOOLS,
  credentials = {},
  limits = {},
}: {
  tools?: BotToolCaller;
  credentials?: Record<string, string>;
  limits?: Partial<BotLimits>;
} = {}): Promise<BotDeps & { store: OpenDb; changed: BotChange[]; close(): Promise<void> }> {
  const store = await createDb({ url: ':memory:' });
  const changes = createEventBus<BotChange>();
  const changed: BotChange[] = [];
  changes.subscribe((e) => changed.push(e.event));
  return {
    db: store.db,
    store,
    log: testLogger(),
    limits: botLimits({ providerMaxRetries: 0, ...limits }),
    tools,
    credentials: { get: async (name) => credentials[name] ?? null },
    changes,
    changed,
    close: () => store.close(),
  };
}
