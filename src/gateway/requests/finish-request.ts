/**
 * The last step of every relayed request kind but `tools/call`: audit the outcome (X7),
 * then answer with the value or with the wire error the failure maps to.
 * @module
 */

import { traceIdOf } from '../../telemetry/index.js';
import { andThen, type Outcome } from '../relay/index.js';
import type { SessionContext } from '../session/index.js';
import { type AuditFields, auditRow, requestLog } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { answerFailure, type WireError } from './wire-error.js';

/** What the audit row says besides the outcome. */
export type RequestFields = Omit<AuditFields, 'output' | 'error' | 'success'>;

/**
 * {@link finishRequest} of an answer the sanitizer went over (X4): its row is marked
 * `sanitized` when the sanitizer changed or flagged it.
 */
export function finishSanitized<T>(
  path: CallPath,
  ctx: SessionContext,
  started: number,
  fields: RequestFields,
  outcome: Outcome<{ result: T; sanitized: boolean }>,
): T {
  const sanitized = outcome.ok && outcome.value.sanitized;
  return finishRequest(
    path,
    ctx,
    started,
    { ...fields, sanitized },
    andThen(outcome, (done) => done.result),
  );
}

/** Audit `outcome` of the request of `ctx` that began at `started`; return its value or throw its wire error. */
export function finishRequest<T>(
  path: CallPath,
  ctx: SessionContext,
  started: number,
  fields: RequestFields,
  outcome: Outcome<T>,
): T {
  const traceId = ctx.trace ? traceIdOf(ctx.trace) : null;
  const row = outcome.ok ? { ...fields, output: outcome.value, traceId } : { ...fields, error: outcome.error, traceId };
  path.audit?.commit(auditRow('server', ctx.session, started, row));
  if (outcome.ok) return outcome.value;
  throw wireErrorOf(path, ctx, outcome.error);
}

/** The wire error for a failure of `ctx`'s request; our own failures are logged, never shown. */
export function wireErrorOf(path: CallPath, ctx: SessionContext, error: unknown): WireError {
  const answer = answerFailure(error, false);
  if (answer.internal !== null)
    requestLog(path, ctx).warn({ err: answer.internal, session: ctx.session.id }, 'agent request failed');
  return answer.error;
}
