/**
 * Pure decisions of the supervisor (SPEC S3): each event becomes the next bookkeeping state
 * and a list of commands the machine then enqueues (spawn, send, stop, emit).
 * @module
 */
import type { ConnectionEvent, DisabledReason } from './connection-types.js';
import { toErrorInfo } from './error-info.js';
import { diffServers } from './reconcile.js';
import type { ErrorInfo, ServerEvent, ServerSpec } from './types.js';

/** The supervisor's bookkeeping: no actor refs, only names and specs. */
export type SupervisorBooks = {
  /** Specs of live children, by server name. */
  readonly running: Readonly<Record<string, ServerSpec>>;
  /** Children told to remove themselves: the spec to spawn once they are done, or null. */
  readonly removing: Readonly<Record<string, ServerSpec | null>>;
  /** Consecutive crashes of a server's child since it last connected. */
  readonly crashes: Readonly<Record<string, number>>;
};

/** Options of a child spawn beyond its name and spec. */
export type SpawnOptions = {
  readonly initialAttempt?: number;
  readonly initialError?: ErrorInfo;
  readonly startDisabled?: DisabledReason;
};

/** One effect for the machine to enqueue. */
export type Command =
  | { readonly kind: 'spawn'; readonly name: string; readonly spec: ServerSpec; readonly options: SpawnOptions }
  | { readonly kind: 'send'; readonly name: string; readonly event: ConnectionEvent }
  | { readonly kind: 'stop'; readonly name: string }
  | { readonly kind: 'emit'; readonly event: ServerEvent };

/** The next books and the commands that get there. */
export type Plan = { readonly books: SupervisorBooks; readonly commands: readonly Command[] };

/** Books with nothing running. */
export const EMPTY_BOOKS: SupervisorBooks = { running: {}, removing: {}, crashes: {} };

function without<T>(record: Readonly<Record<string, T>>, name: string): Record<string, T> {
  const { [name]: _dropped, ...rest } = record;
  return rest;
}

/** Reconcile desired servers against the running ones; a name still being removed is spawned later. */
export function planApply(books: SupervisorBooks, servers: Readonly<Record<string, ServerSpec>>): Plan {
  const { add, remove, update } = diffServers(servers, books.running);
  const running = { ...books.running };
  const removing = { ...books.removing };
  let crashes = books.crashes;
  const commands: Command[] = [];
  for (const name of Object.keys(removing)) removing[name] = servers[name] ?? null;
  for (const name of remove) {
    commands.push({ kind: 'send', name, event: { type: 'server.remove' } });
    delete running[name];
    removing[name] = null;
    crashes = without(crashes, name);
  }
  for (const name of update) {
    const spec = servers[name] as ServerSpec;
    commands.push({ kind: 'send', name, event: { type: 'server.update', spec } });
    running[name] = spec;
    crashes = without(crashes, name);
  }
  for (const name of add) {
    const spec = servers[name] as ServerSpec;
    if (Object.hasOwn(removing, name)) continue;
    commands.push({ kind: 'spawn', name, spec, options: {} });
    running[name] = spec;
  }
  return { books: { running, removing, crashes }, commands };
}

/** A child finished (it was removed): drop it, and spawn the spec that waited for its name. */
export function planDone(books: SupervisorBooks, name: string): Plan {
  const pending = books.removing[name] ?? null;
  const commands: Command[] = [{ kind: 'stop', name }];
  const running = without(books.running, name);
  if (pending !== null) {
    commands.push({ kind: 'spawn', name, spec: pending, options: {} });
    running[name] = pending;
  }
  return { books: { running, removing: without(books.removing, name), crashes: books.crashes }, commands };
}

/**
 * A child crashed. A live server is respawned waiting a growing backoff (`initialAttempt` =
 * crash count) and after `maxRestarts` crashes it is respawned `disabled` ('exhausted'), so a
 * child that throws at once cannot loop hot. A child being removed counts as removed.
 */
export function planError(books: SupervisorBooks, name: string, error: unknown, maxRestarts: number): Plan {
  const stop: Command = { kind: 'stop', name };
  const spec = books.running[name];
  if (spec === undefined) {
    if (!Object.hasOwn(books.removing, name)) return { books, commands: [stop] };
    const done = planDone(books, name);
    return {
      books: done.books,
      commands: [stop, { kind: 'emit', event: { type: 'removed', server: name } }, ...done.commands.slice(1)],
    };
  }
  const count = (books.crashes[name] ?? 0) + 1;
  const crashes = { ...books.crashes, [name]: count };
  const initialError = toErrorInfo(error);
  if (count <= maxRestarts) {
    return {
      books: { ...books, crashes },
      commands: [stop, { kind: 'spawn', name, spec, options: { initialAttempt: count, initialError } }],
    };
  }
  if (count === maxRestarts + 1) {
    const options: SpawnOptions = { initialError, startDisabled: 'exhausted' };
    return { books: { ...books, crashes }, commands: [stop, { kind: 'spawn', name, spec, options }] };
  }
  const event: ServerEvent = { type: 'disabled', server: name, reason: 'exhausted' };
  const next = { running: without(books.running, name), removing: books.removing, crashes: without(crashes, name) };
  return { books: next, commands: [stop, { kind: 'emit', event }] };
}

/** Forward `server.connect` / `server.disconnect` to a live child; a manual connect forgives crashes. */
export function planCommand(books: SupervisorBooks, name: string, type: 'server.connect' | 'server.disconnect'): Plan {
  if (!Object.hasOwn(books.running, name)) return { books, commands: [] };
  const crashes = type === 'server.connect' ? without(books.crashes, name) : books.crashes;
  return { books: { ...books, crashes }, commands: [{ kind: 'send', name, event: { type } }] };
}

/** Re-emit a child's event; a successful connection forgives its crashes. */
export function planReport(books: SupervisorBooks, event: ServerEvent): Plan {
  const emit: Command = { kind: 'emit', event };
  if (event.type !== 'connected' || !Object.hasOwn(books.crashes, event.server)) return { books, commands: [emit] };
  return { books: { ...books, crashes: without(books.crashes, event.server) }, commands: [emit] };
}
