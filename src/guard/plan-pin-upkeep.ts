/**
 * Rug-pull pins (SPEC X5), the pure part of keeping `tool_pins` bounded: which pins to
 * refresh, forget or evict, decided from what a server lists now and when each pin was last
 * seen. The guard applies the plans (`gateway/pin-guard.ts`).
 * @module
 */

/** What a plan reads of a pin. */
export type SeenPin = { readonly tool: string; readonly lastSeenAt: number };

/** How often a listed pin's `lastSeenAt` is written: a tenth of the grace, between 1 s and 1 h. */
export function touchEveryMs(forgetGoneToolAfterMs: number): number {
  return Math.min(60 * 60 * 1000, Math.max(1_000, Math.floor(forgetGoneToolAfterMs / 10)));
}

/** The listed pins whose `lastSeenAt` is older than `everyMs` (only those are written: not one write per re-list). */
export function pinsToTouch(
  pins: Iterable<SeenPin>,
  listed: ReadonlySet<string>,
  now: number,
  everyMs: number,
): string[] {
  const stale: string[] = [];
  for (const pin of pins) if (listed.has(pin.tool) && now - pin.lastSeenAt >= everyMs) stale.push(pin.tool);
  return stale;
}

/** The pins of tools a connected server no longer lists and has not listed for `afterMs`. */
export function goneTools(
  pins: Iterable<SeenPin>,
  listed: ReadonlySet<string>,
  now: number,
  afterMs: number,
): string[] {
  const gone: string[] = [];
  for (const pin of pins) if (!listed.has(pin.tool) && now - pin.lastSeenAt >= afterMs) gone.push(pin.tool);
  return gone;
}

/** What the cap allows when `incoming` new tools are to be pinned. */
export type CapPlan = {
  /** Pins to forget first: tools not listed now, least recently seen first. */
  readonly evict: string[];
  /** How many of the incoming tools can be pinned (the rest are held unpinned). */
  readonly admit: number;
};

/**
 * Make room for `incoming` new pins under `max` pins per server: evict pins of tools not
 * listed now, least recently seen first (ties by name, so the plan is stable); the tools
 * listed now are never evicted, so a catalog larger than `max` admits only what fits.
 */
export function planCap(pins: readonly SeenPin[], listed: ReadonlySet<string>, incoming: number, max: number): CapPlan {
  const over = pins.length + incoming - max;
  if (over <= 0) return { evict: [], admit: incoming };
  const evictable = pins
    .filter((pin) => !listed.has(pin.tool))
    .sort((a, b) => a.lastSeenAt - b.lastSeenAt || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  const evict = evictable.slice(0, over).map((pin) => pin.tool);
  return { evict, admit: Math.max(0, incoming - (over - evict.length)) };
}
