/**
 * Rug-pull pins across replicas (issue 22 part 7): each replica keeps the pins in memory
 * (`pin-index.ts`) over the one `tool_pins` table. When another replica quarantined a tool or
 * had one approved, this replica reads the server's pins again and takes the stored ones: a
 * tool quarantined elsewhere is hidden here even though this replica's own connection still
 * lists the version pinned, and an approval elsewhere lifts the hold here. What changed is
 * published as this replica's own quarantines and approvals are (its views and sessions follow,
 * `/api/events` tells), marked `relayedFrom` (audited once, by the replica that saw it).
 * @module
 */
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Db } from '../storage/create-db.js';
import { listPins, type ToolPin } from '../storage/pin-repo.js';
import type { PinPolicy } from './pin-guard.js';
import type { PinIndex } from './pin-index.js';

/** A hold taken or lifted by the reload: `pin` as stored now, `before` as it was in memory. */
export type ReloadedPin = { readonly pin: ToolPin; readonly before: ToolPin | undefined };

/** What a reload changed in memory. */
export type ReloadedPins = { quarantined: ReloadedPin[]; approved: ReloadedPin[] };

/** What a reload needs from the guard. */
export type ReloadDeps = { db: Db; pins: PinIndex; bus: EventBus<HubEvent>; policy: () => PinPolicy };

/** Reload `server`'s pins ({@link reloadPins}) after replica `from` changed them, and publish what changed here. */
export async function reloadAndTell({ db, pins, bus, policy }: ReloadDeps, server: string, from: string) {
  const { quarantined, approved } = await reloadPins(db, pins, server);
  for (const { pin } of quarantined)
    bus.publish({
      type: 'tool_quarantined',
      server,
      tool: pin.tool,
      previousHash: pin.hash,
      hash: pin.pendingHash ?? pin.hash,
      policy: policy(),
      relayedFrom: from,
    });
  for (const { pin } of approved) bus.publish({ type: 'tool_approved', server, tool: pin.tool, relayedFrom: from });
}

/** Replace the pins of `server` in `pins` by the stored ones; run inside the server's serialized work. */
export async function reloadPins(db: Db, pins: PinIndex, server: string): Promise<ReloadedPins> {
  const stored = await listPins(db, server);
  const changed: ReloadedPins = { quarantined: [], approved: [] };
  const kept = new Set<string>();
  for (const pin of stored) {
    kept.add(pin.tool);
    const before = pins.get(server, pin.tool);
    const held = pin.status === 'quarantined';
    const sameHold = held && before?.status === 'quarantined' && before.pendingHash === pin.pendingHash;
    // The pending change stored counts as seen here too: this replica's own re-list of it is no new change.
    pins.set({ ...pin, countedHash: sameHold ? (before?.countedHash ?? null) : held ? pin.pendingHash : null });
    if (held && !sameHold) changed.quarantined.push({ pin, before });
    else if (!held && before?.status === 'quarantined') changed.approved.push({ pin, before });
  }
  // Forgotten by the leader's upkeep (or evicted for room) on another replica.
  for (const tool of [...pins.of(server).keys()]) if (!kept.has(tool)) pins.delete(server, tool);
  return changed;
}
