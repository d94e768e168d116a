/**
 * Reconnect backoff (SPEC S2): exponential growth, a cap, and jitter that only shortens.
 * @module
 */
import type { BackoffPolicy } from './types.js';

/**
 * Delay before reconnect attempt `attempt` (1-based): `d = min(capMs, baseMs·factor^(attempt-1))`,
 * then `round(d · (1 - jitter·random()))`, so the result lies in `[d·(1-jitter), d]`.
 */
export function nextDelayMs(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = policy.baseMs * policy.factor ** exponent;
  const capped = Math.min(policy.capMs, Number.isFinite(raw) ? raw : policy.capMs);
  const r = Math.min(1, Math.max(0, random()));
  return Math.max(0, Math.round(capped * (1 - policy.jitter * r)));
}

/** True once `attempt` is past `maxAttempts`; a policy without `maxAttempts` never runs out. */
export function isExhausted(attempt: number, policy: BackoffPolicy): boolean {
  return policy.maxAttempts !== undefined && attempt > policy.maxAttempts;
}
