/**
 * The errors of the gateway's sessions and requests (SPEC X7, X8): a session over a
 * cap, the service stopping, a request ended by something other than its upstream
 * (re-exported by `errors.ts`).
 * @module
 */
import { HubError } from './hub-error.js';

/** An agent session over a cap (X8): the token's own (`per_token`) or the service's (`total`). */
export class SessionLimitError extends HubError {
  constructor(
    readonly which: 'per_token' | 'total',
    readonly limit: number,
  ) {
    super(
      'session_limit',
      which === 'per_token'
        ? `too many sessions for this token (gateway.maxSessionsPerToken: ${limit}), and none of them idle to close; end some with DELETE`
        : `too many agent sessions on this service (gateway.maxSessions: ${limit}); retry later`,
    );
  }
}

/** The service is stopping: no new sessions or requests, and those still running are ended. */
export class ShuttingDownError extends HubError {
  constructor() {
    super('shutting_down', 'server shutting down');
  }
}

/**
 * A request ended by something other than its upstream (X7 records the true reason): the
 * agent cancelled it, its token was revoked, its session closed while it ran, or its bot was
 * deleted.
 */
export class RequestEndedError extends HubError {
  constructor(readonly reason: 'client cancelled' | 'token revoked' | 'session closed' | 'bot deleted') {
    super('request_ended', reason === 'client cancelled' ? 'cancelled by the client' : reason);
  }
}
