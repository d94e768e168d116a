/**
 * The supervisor statechart (SPEC S3): reconciles desired servers against connection children
 * `conn:<name>`, survives their crashes, and re-emits their `ServerEvent`s for the hub.
 * @module
 */
import { type DoneActorEvent, type ErrorActorEvent, enqueueActions, setup } from 'xstate';
import { connectionMachine } from './connection-machine.js';
import type { ConnectionReport } from './connection-types.js';
import {
  EMPTY_BOOKS,
  type Plan,
  planApply,
  planCommand,
  planDone,
  planError,
  planReport,
  type SupervisorBooks,
} from './supervisor-plan.js';
import type { ServerEvent, ServerSpec } from './types.js';

const CHILD_PREFIX = 'conn:';

/** Id of the connection child for a server. */
export function childId(name: string): string {
  return `${CHILD_PREFIX}${name}`;
}

/** Server name of a connection child id, or null for any other actor id. */
export function serverOfChild(id: string): string | null {
  return id.startsWith(CHILD_PREFIX) ? id.slice(CHILD_PREFIX.length) : null;
}

/** Input of the supervisor. */
export type SupervisorInput = {
  /** Jitter source handed to every connection; without one delays are not jittered. */
  readonly random?: (() => number) | undefined;
  /** Crashes of one child respawned with backoff before it is respawned `disabled` (default 5). */
  readonly maxRestarts?: number | undefined;
};

/** Context of the supervisor: bookkeeping only, no actor refs. */
export type SupervisorContext = SupervisorBooks & { readonly random: () => number; readonly maxRestarts: number };

/** Events the supervisor accepts. */
export type SupervisorEvent =
  | { readonly type: 'config.apply'; readonly servers: Readonly<Record<string, ServerSpec>> }
  | { readonly type: 'server.connect'; readonly server: string }
  | { readonly type: 'server.disconnect'; readonly server: string }
  | ConnectionReport
  | DoneActorEvent<unknown, string>
  | ErrorActorEvent<unknown, string>;

function planFor(context: SupervisorContext, event: SupervisorEvent): Plan {
  switch (event.type) {
    case 'config.apply':
      return planApply(context, event.servers);
    case 'server.connect':
    case 'server.disconnect':
      return planCommand(context, event.server, event.type);
    case 'connection.event':
      return planReport(context, event.event);
  }
  const name = 'actorId' in event ? serverOfChild(event.actorId) : null;
  if (name === null) return { books: context, commands: [] };
  if ('error' in event) return planError(context, name, event.error, context.maxRestarts);
  return planDone(context, name);
}

/** Supervises one `connection` child per configured server. */
export const supervisorMachine = setup({
  types: {
    input: {} as SupervisorInput,
    context: {} as SupervisorContext,
    events: {} as SupervisorEvent,
    emitted: {} as ServerEvent,
  },
  actors: { connection: connectionMachine },
  actions: {
    /** Apply the plan for the event: update the books, then spawn, send, stop and emit. */
    run: enqueueActions(({ context, event, enqueue, self }) => {
      const { books, commands } = planFor(context, event);
      enqueue.assign({ running: books.running, removing: books.removing, crashes: books.crashes });
      for (const command of commands) {
        if (command.kind === 'emit') enqueue.emit(command.event);
        else if (command.kind === 'stop') enqueue.stopChild(childId(command.name));
        else if (command.kind === 'send') enqueue.sendTo(childId(command.name), command.event);
        else {
          const input = { serverId: command.name, spec: command.spec, parentRef: self, random: context.random };
          enqueue.spawnChild('connection', { id: childId(command.name), input: { ...input, ...command.options } });
        }
      }
    }),
  },
}).createMachine({
  id: 'supervisor',
  context: ({ input }) => ({
    ...EMPTY_BOOKS,
    random: input.random ?? (() => 0),
    maxRestarts: input.maxRestarts ?? 5,
  }),
  on: {
    'config.apply': { actions: 'run' },
    'server.connect': { actions: 'run' },
    'server.disconnect': { actions: 'run' },
    'connection.event': { actions: 'run' },
    'xstate.done.actor.*': { actions: 'run' },
    'xstate.error.actor.*': { actions: 'run' },
  },
});
