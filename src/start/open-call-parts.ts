/**
 * What the calls of agents and upstreams need from the database, built once it is open
 * (issue 8: after the upstreams were spawned): the audit writer (X7), the sampling budgets
 * (X6), the bots' base deps (B1–B4) and their sampling answerer, and the upstream peer
 * (G6) that the spawned connections were promised.
 * @module
 */
import type { Logger } from 'pino';
import { createSamplingAnswerer } from '../bots/answer-sampling.js';
import { botLimits } from '../bots/bot-limits.js';
import type { AnswerSampling, BotChange, BotEventSink, Credentials } from '../bots/ports.js';
import { createEventBus, type EventBus } from '../bus/create-event-bus.js';
import type { AppConfig } from '../config/schema.js';
import {
  createSamplingBudget,
  createUndeliveredTally,
  createUpstreamPeer,
  type SamplingBudget,
  type SamplingRoute,
  type UndeliveredTally,
} from '../gateway/peer/index.js';
import type { CallTracker } from '../gateway/relay/call-tracker.js';
import type { SessionRegistry } from '../gateway/session/session-registry.js';
import { type AuditWriter, createAuditWriter } from '../storage/audit-writer.js';
import type { Db } from '../storage/create-db.js';
import { createTokenVerifier, type TokenVerifier } from '../storage/token-verifier.js';
import type { UpstreamPeer } from '../upstream/types.js';
import type { Storage } from './open-storage.js';

/** The parts, for the rest of start-up and for shutdown (`undelivered.close`, `audit.close`, `budget.flush`). */
export type CallParts = {
  audit: AuditWriter;
  /** Counts the upstream notifications no agent receives, written to the audit per window (issue 17). */
  undelivered: UndeliveredTally;
  budget: SamplingBudget;
  /** The bots' deps without their tool port, which the gateway makes (it is its call path). */
  botBase: {
    db: Db;
    log: Logger;
    limits: ReturnType<typeof botLimits>;
    credentials: Credentials;
    changes: EventBus<BotChange>;
    events: BotEventSink;
    secrets: ReadonlySet<string>;
  };
  /** Who answers each server's sampling (G6), and the bots' answerer. */
  sampling: { route(server: string): SamplingRoute; answer: AnswerSampling };
  peer: UpstreamPeer;
  /** The API tokens' verifier (X1): a bot deleted revokes its tokens; a brief database outage fails no token seen lately. */
  tokens: TokenVerifier;
};

/** Build the parts over the open `storage`. */
export async function openCallParts({
  storage: { store, auditJournal },
  log,
  config,
  credentials,
  tracker,
  sessions,
  events,
  secrets,
}: {
  storage: Storage;
  log: Logger;
  config: () => AppConfig;
  credentials: Credentials;
  tracker: CallTracker;
  sessions: SessionRegistry;
  /** The service's event bus: bot activity goes to `/api/events` and the MCP push (issue 18). */
  events: BotEventSink;
  /** What the log masks: kept out of the bot events' excerpts. */
  secrets: ReadonlySet<string>;
}): Promise<CallParts> {
  // Audit (X7): answered requests journaled, batched writes, flushed on shutdown (after
  // everything that audits has stopped); bounded in bytes besides the age cap (issue 17).
  const audit = createAuditWriter(store.db, {
    log,
    client: store.writer,
    reconnect: store.reopenWriter,
    journalPath: auditJournal.path,
    journalBefore: auditJournal.before,
    // The byte cap measures a SQLite file; on PostgreSQL the age limit alone applies (ADR 036).
    ...(store.postgres ? {} : { cap: { maxBytes: () => config().audit.maxBytes } }),
  });
  const budget = await createSamplingBudget({
    db: store.db,
    budgetOf: (server) => config().mcpServers[server]?.samplingBudgetTokens,
    log,
    shared: store.postgres !== null,
  }).catch(async (error: unknown) => {
    await audit.close();
    throw error;
  });
  const changes = createEventBus<BotChange>({}, (error) => log.error({ err: error }, 'bot listener failed'));
  const botBase = {
    db: store.db,
    log: log.child({ mod: 'bots' }),
    limits: botLimits(),
    credentials,
    changes,
    events,
    secrets,
  };
  const sampling = {
    route: (server: string) => config().mcpServers[server]?.sampling ?? 'auto',
    answer: createSamplingAnswerer(botBase),
  };
  // The hub's connections and the gateway's sessions meet here: one call tracker and one
  // session registry, shared by the upstream peer (the hub's side) and the gateway.
  const undelivered = createUndeliveredTally({ audit, windowMs: () => config().audit.undeliveredWindowMs });
  const peer = createUpstreamPeer({
    tracker,
    sessions,
    log: log.child({ mod: 'gateway' }),
    budget,
    audit,
    undelivered,
    sampling,
  });
  const tokens = createTokenVerifier(store.db, {
    botChanges: changes,
    timeoutMs: () => config().limits.fleet.storeTimeoutMs,
    log,
  });
  return { audit, undelivered, budget, botBase, sampling, peer, tokens };
}
