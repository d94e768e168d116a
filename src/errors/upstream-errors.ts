/**
 * The errors of upstream connections (SPEC X8): messages over a size limit and
 * answer streams that broke off (re-exported by `errors.ts`).
 * @module
 */
import { HubError } from './hub-error.js';

/** A message from an upstream over its `maxAnswerBytes`: not read; `closed` when its connection went with it. */
export class UpstreamAnswerTooLargeError extends HubError {
  constructor(
    readonly server: string,
    readonly limit: number,
    readonly closed: boolean,
  ) {
    super(
      'upstream_failed',
      closed
        ? `server "${server}" sent a message over ${limit} bytes (maxAnswerBytes): it was not read, and the connection was closed`
        : `server "${server}" answered over ${limit} bytes (maxAnswerBytes): the answer was not read`,
    );
  }
}

/** The stream that carried (or was to carry) answers ended or broke off: `what` says how. */
export class AnswerStreamError extends HubError {
  constructor(
    readonly server: string,
    what: string,
    options?: { cause: unknown },
  ) {
    super('upstream_failed', `server "${server}" ${what}`, options);
  }
}

/** A request too large for its server's `maxMessageBytes`: refused before it was sent (X8). */
export class UpstreamMessageTooLargeError extends HubError {
  constructor(
    readonly server: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      'payload_too_large',
      `the request is ${bytes} bytes, over the ${limit} bytes server "${server}" takes (maxMessageBytes); it was not sent`,
    );
  }
}

/**
 * An upstream that wants an OAuth authorization (issue 23): it answered 401 and pointed to
 * its authorization server, and no token (or no refresh token that still works) is stored.
 * `authorizationServer` is that server's URL (null when discovery itself failed); `reason`
 * says why in one line. The connection waits in `needs_authorization` instead of retrying.
 */
export class NeedsAuthorizationError extends HubError {
  constructor(
    readonly server: string,
    readonly authorizationServer: string | null,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      'needs_authorization',
      `server "${server}" needs authorization${authorizationServer ? ` at ${authorizationServer}` : ''} (${reason}): run 'bnity mcp auth ${server}'`,
      options,
    );
  }
}

/** An OAuth authorization that cannot start or finish (issue 23): one line saying why; nothing was stored. */
export class OAuthFlowError extends HubError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('bad_request', message, options);
  }
}

/** The upstream redirected a request to another origin: not followed, so its body and headers went nowhere else (X8). */
export class UpstreamRedirectError extends HubError {
  constructor(
    readonly server: string,
    readonly target: string,
  ) {
    super(
      'upstream_failed',
      `server "${server}" redirected to ${target}, another origin: not followed (the request's body and the config's headers would go there); if the server moved, set its url to the new address`,
    );
  }
}
