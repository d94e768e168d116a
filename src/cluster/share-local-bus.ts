/**
 * A local event bus shared across the fleet (issue 22 part 7): what this replica publishes on
 * it is sent on the fleet bus under `topic`, and what another replica sent is published on it
 * here, as if it had happened here (and not sent on again). The bots' change signal rides on
 * it (`bots.changed`): a bot created, changed or deleted through one replica moves the caches
 * of every replica's bot tools, prompts and roster, and their sessions get `list_changed`.
 * The bots' activity rides on it too (`bots.events`, the bot events of the hub's bus): a chat
 * turn or a workflow run on one replica is told to every replica's sessions, so it reaches an
 * agent whose GET stream another replica holds, as a list change does.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { FleetBus } from './fleet-bus.js';

/** The topic of the bots' change signal (`{ kind, slug }`). */
export const BOTS_TOPIC = 'bots.changed';
/** The topic of the bots' activity (the bot events of the hub's bus). */
export const BOT_EVENTS_TOPIC = 'bots.events';

/** Options of {@link shareLocalBus}. */
export type ShareLocalBusOptions<T> = {
  fleet: FleetBus;
  topic: string;
  /** The local bus; its events must be JSON (they travel as NOTIFY payloads). */
  local: EventBus<T>;
  /** Which of its events are shared (default: all). */
  only?: (event: T) => boolean;
  /** What an event from another replica becomes here: by default itself; `from` is that replica's id. */
  stamp?: (event: T, from: string) => T;
  log: Pick<Logger, 'warn'>;
};

/** Share `local` under `topic`; resolves once listening, with the stop. */
export async function shareLocalBus<T>({
  fleet,
  topic,
  local,
  only = () => true,
  stamp = (event) => event,
  log,
}: ShareLocalBusOptions<T>): Promise<() => Promise<void>> {
  // Set while an event from another replica is published here (the bus delivers synchronously).
  let relaying = false;
  const unsubscribe = await fleet.subscribe(topic, ({ self, payload, from }) => {
    if (self) return;
    relaying = true;
    try {
      local.publish(stamp(payload as T, from));
    } finally {
      relaying = false;
    }
  });
  const stopLocal = local.subscribe(({ event }) => {
    if (relaying || !only(event)) return;
    void fleet
      .publish(topic, event)
      .catch((error: unknown) => log.warn({ err: error, topic }, 'a change not told to the other replicas'));
  });
  return async () => {
    stopLocal();
    await unsubscribe();
  };
}
