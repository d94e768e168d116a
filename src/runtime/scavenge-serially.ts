/**
 * Collect the young generation on the main thread alone once start-up is over (issue 20).
 * V8 scavenges in parallel by default, with helper threads that split the work and steal it
 * from each other: shorter pauses on a machine with idle cores, more CPU in all. A gateway
 * shares its cores with its stdio upstreams and its clients, and its young generation is
 * capped at 16 MB (`cap-young-generation.ts`), so a scavenge is short anyway. Measured on the
 * two-core machine (`docs/performance.md`, issue 20, third round): the service's CPU a call
 * 3–4 % lower, better in 10 of 14 alternating pairs, p50 unchanged. Set once start-up is
 * over; the start's own bursts keep the parallel scavenger.
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** Make V8 scavenge on the main thread only, from now on. */
export function scavengeSerially(): void {
  setFlagsFromString('--no-parallel-scavenge');
}
