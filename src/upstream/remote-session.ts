/**
 * Opening a remote upstream (S6): Streamable HTTP, legacy SSE, or `auto` (Streamable HTTP,
 * then SSE when the POST gets a 4xx, as the MCP spec's backwards-compatibility section says).
 * @module
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/schema.js';
import { NeedsAuthorizationError } from '../errors.js';
import { maskUrl } from '../guard/mask-secrets.js';
import { ProgressBeforeAnswer } from '../protocol/progress-before-answer.js';
import { connectFailed } from './connect-error.js';
import {
  createRemoteTransport,
  describeRemoteError,
  type RemoteKind,
  remoteAttempts,
  shouldFallBackToSse,
} from './create-transport.js';
import { createRemoteGate } from './gate-notifications.js';
import { raceSignal } from './race-signal.js';
import { type CredentialSource, readCredential } from './read-credential.js';
import { NO_STDERR, type OpenSessionOptions, once, type Session, type SessionPhase, trackClose } from './session.js';

/** Where a server's `credentialKey` is looked up (the keystore, C6). */
export type { CredentialSource };

/**
 * OAuth to an HTTP upstream (issue 23, `src/oauth/`, wired in main.ts): the wrapper of a
 * session's fetch that authorizes its requests; `onLost` closes a live session whose
 * authorization is gone for good. Null: the server sends no OAuth token.
 */
export type UpstreamAuthorizer = (options: {
  readonly server: string;
  readonly config: RemoteServerConfig;
  readonly onLost: (error: NeedsAuthorizationError) => void;
}) => ((inner: FetchLike) => FetchLike) | null;

/** Options of {@link openRemoteSession}. */
export type OpenRemoteSessionOptions = OpenSessionOptions & {
  /** The server's name, for the errors its limits give. */
  readonly serverId: string;
  readonly config: RemoteServerConfig;
  /** Resolves `config.credentialKey` into `Authorization: Bearer …` at each connect. */
  readonly credentials?: CredentialSource | undefined;
  /** OAuth (issue 23): used when no static credential is configured. */
  readonly authorize?: UpstreamAuthorizer | undefined;
};

const same = (fetch: FetchLike): FetchLike => fetch;

const LABEL: Record<RemoteKind, string> = { http: 'Streamable HTTP', sse: 'SSE' };

/** `text` with the values of the credential-bearing headers cut out. */
function withoutSecrets(text: string, headers: Record<string, string>): string {
  let out = text;
  for (const [name, value] of Object.entries(headers)) {
    if (!/^authorization$/i.test(name)) continue;
    for (const part of [value, value.replace(/^Bearer\s+/i, '')]) {
      if (part.length >= 4) out = out.split(part).join('[redacted]');
    }
  }
  return out;
}

/** Connect with the configured transport; `session.transport` tells which one was used. */
export async function openRemoteSession(options: OpenRemoteSessionOptions): Promise<Session> {
  const { config, log } = options;
  const attempts = remoteAttempts(config.transport);
  const headers = await requestHeaders(config, options.credentials);
  const failures: string[] = [];
  for (const kind of attempts) {
    try {
      return await openOnce(kind, headers, options);
    } catch (error) {
      if (options.requestOptions.signal?.aborted) throw error;
      // Waiting for an authorization is no transport's fault: no fallback, said as it is.
      const unauthorized = authorizationFailure(error);
      if (unauthorized) throw unauthorized;
      // An upstream may echo our Authorization header back: its text never carries ours (C6).
      const message = withoutSecrets(describeRemoteError(error, config.url), headers);
      const fallBack = kind === 'http' && attempts.includes('sse') && shouldFallBackToSse(error);
      if (!fallBack) {
        const all = [...failures, failures.length > 0 ? `${LABEL[kind]} fallback: ${message}` : message];
        throw connectFailed(all.join('; '), error);
      }
      failures.push(`${message} (${LABEL[kind]})`);
      log.info({ url: maskUrl(config.url), reason: message }, 'upstream falling back to SSE');
    }
  }
  throw connectFailed(`no transport to try for ${maskUrl(config.url)}`);
}

/**
 * The configured headers plus, with a `credentialKey`, `Authorization: Bearer <secret>`
 * (unless the headers set Authorization themselves). The secret is never logged, and no
 * error message carries it: a missing or unreadable credential fails the connect.
 */
export async function requestHeaders(
  config: RemoteServerConfig,
  credentials: CredentialSource | undefined,
): Promise<Readonly<Record<string, string>>> {
  const headers = config.headers;
  const name = config.credentialKey;
  if (name === undefined || Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return headers;
  const secret = await readCredential(credentials, name);
  return { ...headers, Authorization: `Bearer ${secret}` };
}

/** The {@link NeedsAuthorizationError} a failure is or was caused by, if any. */
function authorizationFailure(error: unknown): NeedsAuthorizationError | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++)
    if (at instanceof NeedsAuthorizationError) return at;
  return null;
}

async function openOnce(
  kind: RemoteKind,
  headers: Readonly<Record<string, string>>,
  { serverId, config, newClient, requestOptions, graceMs, log, gate, authorize }: OpenRemoteSessionOptions,
) {
  const gated = gate && createRemoteGate(gate);
  // Set when a live session's authorization went for good: the session closes with it.
  let lost: NeedsAuthorizationError | null = null;
  const hasStatic = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  const bearer = hasStatic
    ? null
    : (authorize?.({
        server: serverId,
        config,
        onLost: (error) => {
          if (phase !== 'live' || lost) return;
          lost = error;
          // The transport, not the session's close: this end is unexpected, and says why.
          void transport.close().catch(() => undefined);
        },
      }) ?? null);
  const wrapFetch =
    bearer || gated ? (inner: FetchLike) => (bearer ?? same)(gated ? gated.over(inner) : inner) : undefined;
  const transport = createRemoteTransport({
    kind,
    url: config.url,
    headers,
    server: serverId,
    maxAnswerBytes: config.maxAnswerBytes,
    maxMessageBytes: config.maxMessageBytes,
    wrapFetch,
  });
  const client = newClient();
  let phase: SessionPhase = 'connecting';
  const closed = trackClose(client, {
    phase: () => phase,
    log,
    unexpected: (lastError) =>
      lost ??
      connectFailed(
        lastError ? describeRemoteError(lastError, config.url) : `connection to ${maskUrl(config.url)} closed`,
        lastError ?? undefined,
      ),
  });
  const close = once(async () => {
    phase = 'closing';
    const { inner } = transport;
    if (inner instanceof StreamableHTTPClientTransport && inner.sessionId !== undefined) {
      // Be polite (DELETE the session), but never let a dead server hold up the close.
      await raceSignal(inner.terminateSession(), AbortSignal.timeout(graceMs)).catch(() => undefined);
    }
    await client.close().catch(() => undefined);
  });
  try {
    // Progress read with its call's answer reaches the client before the answer (ADR 026).
    const ordered = new ProgressBeforeAnswer(gated ? gated.wrap(transport) : transport);
    await raceSignal(client.connect(ordered, requestOptions), requestOptions.signal);
  } catch (error) {
    await close();
    throw error;
  }
  phase = 'live';
  const session: Session = { client, transport: kind, pid: null, stderr: NO_STDERR, closed, close };
  return session;
}
