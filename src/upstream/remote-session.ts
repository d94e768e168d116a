/**
 * Opening a remote upstream (S6): Streamable HTTP, legacy SSE, or `auto` (Streamable HTTP,
 * then SSE when the POST gets a 4xx, as the MCP spec's backwards-compatibility section says).
 * @module
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RemoteServerConfig } from '../config/schema.js';
import { ProgressBeforeAnswer } from '../protocol/progress-before-answer.js';
import { connectFailed, describeConnectError } from './connect-error.js';
import { createRemoteTransport, type RemoteKind, remoteAttempts, shouldFallBackToSse } from './create-transport.js';
import { createRemoteGate } from './gate-notifications.js';
import { raceSignal } from './race-signal.js';
import { type CredentialSource, readCredential } from './read-credential.js';
import { NO_STDERR, type OpenSessionOptions, once, type Session, type SessionPhase, trackClose } from './session.js';

/** Where a server's `credentialKey` is looked up (the keystore, C6). */
export type { CredentialSource };

/** Options of {@link openRemoteSession}. */
export type OpenRemoteSessionOptions = OpenSessionOptions & {
  /** The server's name, for the errors its limits give. */
  readonly serverId: string;
  readonly config: RemoteServerConfig;
  /** Resolves `config.credentialKey` into `Authorization: Bearer …` at each connect. */
  readonly credentials?: CredentialSource | undefined;
};

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
      // An upstream may echo our Authorization header back: its text never carries ours (C6).
      const message = withoutSecrets(describeConnectError(error, { url: config.url }), headers);
      const fallBack = kind === 'http' && attempts.includes('sse') && shouldFallBackToSse(error);
      if (!fallBack) {
        const all = [...failures, failures.length > 0 ? `${LABEL[kind]} fallback: ${message}` : message];
        throw connectFailed(all.join('; '), error);
      }
      failures.push(`${message} (${LABEL[kind]})`);
      log.info({ url: config.url, reason: message }, 'upstream falling back to SSE');
    }
  }
  throw connectFailed(`no transport to try for ${config.url}`);
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

async function openOnce(
  kind: RemoteKind,
  headers: Readonly<Record<string, string>>,
  { serverId, config, newClient, requestOptions, graceMs, log, gate }: OpenRemoteSessionOptions,
) {
  const gated = gate && createRemoteGate(gate);
  const transport = createRemoteTransport({
    kind,
    url: config.url,
    headers,
    server: serverId,
    maxAnswerBytes: config.maxAnswerBytes,
    maxMessageBytes: config.maxMessageBytes,
    wrapFetch: gated?.over,
  });
  const client = newClient();
  let phase: SessionPhase = 'connecting';
  const closed = trackClose(client, {
    phase: () => phase,
    log,
    unexpected: (lastError) =>
      connectFailed(
        lastError ? describeConnectError(lastError, { url: config.url }) : `connection to ${config.url} closed`,
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
