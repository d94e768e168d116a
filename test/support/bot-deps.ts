/**
 * Dependencies of the bots for in-process tests: a migrated database (`:memory:`, or PostgreSQL), a real
 * event bus (and the bot events published, collected), a quiet logger, credentials from a plain map, and the given tool port.
 * @module
 */
import type { BotDeps } from '../../src/bots/bot-deps.js';
import { type BotLimits, botLimits } from '../../src/bots/bot-limits.js';
import type { BotChange, BotToolCaller } from '../../src/bots/ports.js';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import type { BotEvent } from '../../src/events/hub-event.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { testLogger } from './fixtures.js';
import { type Dialect, openTestDb } from './test-db.js';

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
  secrets = [],
  dialect = 'sqlite',
}: {
  tools?: BotToolCaller;
  credentials?: Record<string, string>;
  limits?: Partial<BotLimits>;
  /** Values the log would mask, kept out of the published excerpts. */
  secrets?: string[];
  /** The database the repositories run on (ADR 036). */
  dialect?: Dialect;
} = {}): Promise<BotDeps & { store: OpenDb; changed: BotChange[]; published: BotEvent[]; close(): Promise<void> }> {
  const store = await openTestDb(dialect);
  const changes = createEventBus<BotChange>();
  const changed: BotChange[] = [];
  changes.subscribe((e) => changed.push(e.event));
  const published: BotEvent[] = [];
  return {
    db: store.db,
    store,
    log: testLogger(),
    limits: botLimits({ providerMaxRetries: 0, ...limits }),
    tools,
    credentials: { get: async (name) => credentials[name] ?? null },
    changes,
    changed,
    events: { publish: (event) => published.push(event) },
    published,
    secrets: new Set(secrets),
    close: () => store.close(),
  };
}
