/**
 * What connecting opens before discovery: an initialized SDK client over one transport,
 * and the means to end it. Shared by the stdio and remote openers.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from 'pino';
import { UnreadableLineError } from '../errors.js';
import { createRepeatedWarning } from '../log/repeated-warning.js';
import type { NotificationGate } from './notification-limits.js';
import type { StderrLog } from './types.js';

/** An initialized session, before its catalog is listed. */
export type Session = {
  readonly client: Client;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly pid: number | null;
  readonly stderr: StderrLog;
  /** Resolves once, when the client closes: null if we closed it, else why it ended. */
  readonly closed: Promise<Error | null>;
  /** Ends the session and, for stdio, every process of it. Idempotent. */
  close(): Promise<void>;
};

/** What both openers take. */
export type OpenSessionOptions = {
  /** Creates the SDK client (with its notification handlers) for each attempt. */
  readonly newClient: () => Client;
  /** Passed to `initialize`; `signal` also abandons spawning and stream opening. */
  readonly requestOptions: RequestOptions;
  readonly graceMs: number;
  readonly log: Logger;
  /** The server's notification rate limit on this connection (issue 17); none: unlimited. */
  readonly gate?: NotificationGate | undefined;
};

/** A stderr log that is always empty, for remote upstreams. */
export const NO_STDERR: StderrLog = { lines: () => [] };

/** Where a session is in its life; transport errors are logged at warn only while `live`. */
export type SessionPhase = 'connecting' | 'live' | 'closing';

/** The longest error text a transport warning quotes: a schema error's dump can run to kilobytes. */
const REASON_CHARS = 300;

/**
 * How a transport error is logged: what the upstream sent is its fault, not ours, so one
 * line says what was wrong with it and no stack is logged.
 */
function describeTransportError(error: Error): Record<string, unknown> {
  if (error instanceof UnreadableLineError) return { reason: error.reason, length: error.length, line: error.excerpt };
  const text = error.message.length > REASON_CHARS ? `${error.message.slice(0, REASON_CHARS)}…` : error.message;
  return { reason: text, error: error.name };
}

/**
 * Wire `client.onclose`/`onerror` before `connect()`: the returned promise resolves once on
 * close, with null when we were closing it, else with `unexpected(last transport error)`.
 * While live, transport errors are warned about once, then summed up (issue 17).
 */
export function trackClose(
  client: Client,
  {
    phase,
    log,
    unexpected,
  }: { phase: () => SessionPhase; log: Logger; unexpected: (lastError: Error | null) => Error },
): Promise<Error | null> {
  let lastError: Error | null = null;
  const warning = createRepeatedWarning(log, 'upstream transport error');
  client.onerror = (error) => {
    lastError = error;
    // While connecting, the failure is reported once by connectUpstream instead.
    if (phase() === 'live') warning.warn(describeTransportError(error));
    else log.debug({ err: error }, 'upstream transport error');
  };
  return new Promise((resolve) => {
    client.onclose = () => {
      warning.close();
      resolve(phase() === 'closing' ? null : unexpected(lastError));
    };
  });
}

/** Memoize an async close so every caller awaits the same run. */
export function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => {
    running ??= run();
    return running;
  };
}
