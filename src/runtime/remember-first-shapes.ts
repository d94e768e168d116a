/**
 * Have V8 record what a function sees from its first call, not from its eighth (issue 20).
 * V8 gives a function its feedback vector (the object shapes and call targets it has met,
 * which optimized code is specialized for) only after a few calls. The call path runs for a
 * session's first requests (`initialize`, `tools/list`) before it has one, so those shapes
 * were never recorded: after a few hundred `tools/call`s V8 optimized it for that one
 * message shape, and the next `tools/list` (no `params`, another map) deoptimized it all —
 * 17 functions at once — and the service recompiled its call path under load: 98
 * optimizations, ~250 ms of compiler time in the next 2,000 calls, its compiler threads at
 * 95–105 µs a call instead of ~40 (`docs/performance.md`, issue 20, fifth round). Recorded
 * from the first call, both shapes are in the feedback before anything is optimized. The
 * price is a feedback vector for each function that runs at all after this is set, a few
 * hundred KB. Set before the service opens its upstreams: their first exchanges shape the
 * SDK client's path the same way.
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** Allocate feedback vectors at a function's first call in this process from now on. */
export function rememberFirstShapes(): void {
  setFlagsFromString('--no-lazy-feedback-allocation');
}
