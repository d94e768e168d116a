/**
 * Shared fakes for the machine tests: specs, handles, and scripted upstream actors that
 * record what they were asked and whether their cleanup ran.
 * @module
 */
import { createActor, type EventObject, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type {
  BackoffPolicy,
  CatalogCounts,
  ConnectInput,
  ConnectionInput,
  PingInput,
  PingResult,
  ServerEvent,
  ServerSpec,
  UpstreamHandle,
  WatchEvent,
  WatchInput,
} from '../../machines/index.js';
import { connectionMachine } from '../../machines/index.js';

/** The schema's default policy (SPEC S2). */
export const BACKOFF: BackoffPolicy = { baseMs: 500, factor: 2, capMs: 30_000, jitter: 0.2, resetAfterMs: 10_000 };

/** Counts a fake upstream reports. */
export const COUNTS: CatalogCounts = { toolCount: 3, resourceCount: 2, resourceTemplateCount: 1, promptCount: 4 };

/** A spec with long health interval and timeouts unless overridden. */
export function makeSpec(overrides: Partial<Omit<ServerSpec, 'backoff'>> & { backoff?: Partial<BackoffPolicy> } = {}) {
  const { backoff, ...rest } = overrides;
  return {
    enabled: true,
    healthIntervalMs: 60_000,
    pingTimeoutMs: 5_000,
    livenessTimeoutMs: 1_000,
    connectTimeoutMs: 20_000,
    ...rest,
    backoff: { ...BACKOFF, ...backoff },
  } satisfies ServerSpec;
}

/** A stdio handle. */
export function makeHandle(pid = 4242): UpstreamHandle {
  return { transport: 'stdio', pid, connectedAt: 1_000, counts: COUNTS };
}

/** Let settled promises deliver their results: a few microtask turns, no timers. */
export async function flush(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i += 1) await Promise.resolve();
}

/** What a scripted connect or ping does: succeed, fail, throw before returning a promise, or never settle. */
export type Step = 'ok' | 'fail' | 'throw' | 'hang' | 'unauthorized';

/** What an upstream waiting for OAuth fails with (issue 23): code and authorization server, as NeedsAuthorizationError has them. */
export const NEEDS_AUTHORIZATION = () =>
  Object.assign(new Error('server "s1" needs authorization at https://as.example (no authorization is stored)'), {
    code: 'needs_authorization',
    authorizationServer: 'https://as.example',
  });

/** A live fake watcher. */
export type Watcher = { input: WatchInput; sendBack: (event: WatchEvent) => void; cleanedUp: boolean };

/** Scripted upstream actors; steps are consumed per server, `ok` when the script runs out. */
export function fakeUpstream() {
  const connectSteps = new Map<string, Step[]>();
  const pingSteps = new Map<string, Step[]>();
  const connects: ConnectInput[] = [];
  const signals: AbortSignal[] = [];
  const watchers: Watcher[] = [];
  const pings: PingInput[] = [];
  const throwingWatch = new Set<string>();
  const next = (steps: Map<string, Step[]>, id: string): Step => steps.get(id)?.shift() ?? 'ok';
  const run = <T>(step: Step, what: string, value: T): Promise<T> => {
    if (step === 'throw') throw new Error(`${what} threw`);
    if (step === 'fail') return Promise.reject(Object.assign(new Error(`${what} refused`), { code: 'ECONNREFUSED' }));
    if (step === 'hang') return new Promise<T>(() => {});
    if (step === 'unauthorized') return Promise.reject(NEEDS_AUTHORIZATION());
    return Promise.resolve(value);
  };
  const actors = {
    connectUpstream: fromPromise<UpstreamHandle, ConnectInput>(({ input, signal }) => {
      connects.push(input);
      signals.push(signal);
      return run(next(connectSteps, input.serverId), 'connect', makeHandle());
    }),
    watchUpstream: fromCallback<EventObject, WatchInput>(({ input, sendBack }) => {
      if (throwingWatch.has(input.serverId)) throw new Error('watch threw');
      const watcher: Watcher = { input, sendBack, cleanedUp: false };
      watchers.push(watcher);
      return () => {
        watcher.cleanedUp = true;
      };
    }),
    pingUpstream: fromPromise<PingResult, PingInput>(({ input }) => {
      pings.push(input);
      return run(next(pingSteps, input.serverId), 'ping', { latencyMs: 7, at: 5_000 });
    }),
  };
  return {
    actors,
    connects,
    signals,
    watchers,
    pings,
    throwingWatch,
    scriptConnect: (id: string, ...steps: Step[]) => connectSteps.set(id, [...(connectSteps.get(id) ?? []), ...steps]),
    scriptPing: (id: string, ...steps: Step[]) => pingSteps.set(id, [...(pingSteps.get(id) ?? []), ...steps]),
    /** The most recent watcher of a server. */
    watcher: (id: string): Watcher | undefined => watchers.filter((w) => w.input.serverId === id).at(-1),
  };
}

/** A fake upstream. */
export type FakeUpstream = ReturnType<typeof fakeUpstream>;

/** The `connected` event of `makeHandle()` for server `s1`, without `attempt`. */
export const CONNECTED = { type: 'connected', server: 's1', transport: 'stdio', pid: 4242, ...COUNTS } as const;

/** Start a connection actor for `s1` on a simulated clock, collecting everything it emits. */
export function startConnection(options: Partial<ConnectionInput> & { fake?: FakeUpstream } = {}) {
  const { fake = fakeUpstream(), ...input } = options;
  const clock = new SimulatedClock();
  const events: ServerEvent[] = [];
  const actor = createActor(connectionMachine.provide({ actors: fake.actors }), {
    input: { serverId: 's1', spec: makeSpec(), random: () => 0.5, ...input },
    clock,
  });
  actor.on('*', (event) => events.push(event));
  actor.start();
  return {
    actor,
    clock,
    fake,
    state: () => actor.getSnapshot().value,
    context: () => actor.getSnapshot().context,
    /** Events emitted since the last call. */
    take: () => events.splice(0, events.length),
  };
}
