/**
 * How the CLI reaches a running service: `--url` or `BOTERNITY_URL`, else the URL the
 * home's live service recorded (`boternity.url`), else 127.0.0.1 on `BOTERNITY_PORT` (7777); the admin token from `BOTERNITY_ADMIN_TOKEN` or
 * the home directory's `admin-token` file. Every failure becomes one line that says what
 * to do: nothing listening, a refused token, or the server's own message.
 * @module
 */
import { ERROR_TABLE, HubError, type HubErrorCode, ServiceUnreachableError } from '../errors.js';
import { readAdminToken } from '../storage/admin-token.js';
import { readServiceUrl } from '../storage/service-url.js';

/** A client of the control API. */
export type ServiceClient = {
  baseUrl: string;
  /** True when the URL came from `--url` or `BOTERNITY_URL` rather than the default port. */
  explicit: boolean;
  /** True when the URL is the one the home's live service recorded (`boternity.url`). */
  recorded: boolean;
  token: string | null;
  get<T>(path: string): Promise<T>;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** A raw GET for streams (`/api/events`); errors are mapped like `request`'s. */
  open(path: string, signal: AbortSignal): Promise<Response>;
};

/** Resolve the service URL and token. */
export async function createServiceClient({
  url,
  home,
  env = process.env,
}: {
  url?: string | undefined;
  home: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ServiceClient> {
  const given = url ?? (env.BOTERNITY_URL?.trim() || undefined);
  // Else where the live service of this home said it listens (any port), else the default port.
  const recorded = given === undefined ? await readServiceUrl(home) : null;
  const baseUrl = (given ?? recorded ?? `http://127.0.0.1:${env.BOTERNITY_PORT?.trim() || 7777}`).replace(/\/+$/, '');
  const token = env.BOTERNITY_ADMIN_TOKEN?.trim() || (await readAdminToken(home));
  const headers = (json: boolean): Record<string, string> => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
  });

  async function send(method: string, path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, { method, ...init });
    } catch (error) {
      const reason = unreachableReason(error);
      if (reason) throw new ServiceUnreachableError(baseUrl, reason, { cause: error });
      throw error;
    }
    if (response.ok) return response;
    const answer = (await response.json().catch(() => null)) as { error?: { code?: unknown; message?: string } } | null;
    const message = answer?.error?.message ?? response.statusText;
    if (response.status === 401)
      throw new HubError(
        'unauthorized',
        token
          ? `${baseUrl} refused the admin token: set BOTERNITY_ADMIN_TOKEN, or --home to the service's data directory (its admin-token file)`
          : `${baseUrl} needs the admin token: set BOTERNITY_ADMIN_TOKEN, or --home to the service's data directory (its admin-token file)`,
      );
    // The service's own code, when it is one of the table's; else what its status says.
    const given = answer?.error?.code;
    const code: HubErrorCode =
      typeof given === 'string' && Object.hasOwn(ERROR_TABLE, given)
        ? (given as HubErrorCode)
        : response.status >= 500
          ? 'upstream_failed'
          : 'bad_request';
    throw new HubError(code, message, {
      cause: { status: response.status, path },
    });
  }

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(method, path, {
      headers: headers(body !== undefined),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    baseUrl,
    explicit: given !== undefined,
    recorded: recorded !== null,
    token,
    get: <T>(path: string) => request<T>('GET', path),
    request,
    open: (path, signal) => send('GET', path, { headers: { ...headers(false), accept: 'text/event-stream' }, signal }),
  };
}

/** The HTTP status a service error answered with, if it came from one. */
export function statusOf(error: unknown): number | null {
  const cause = error instanceof HubError ? (error.cause as { status?: unknown } | undefined) : undefined;
  return typeof cause?.status === 'number' ? cause.status : null;
}

/** Why nothing answered (connection refused, unknown host, …), or null for other errors. */
function unreachableReason(error: unknown): string | null {
  if (!(error instanceof TypeError)) return null;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const code = cause?.code ?? '';
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'unknown host',
    EAI_AGAIN: 'unknown host',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    UND_ERR_CONNECT_TIMEOUT: 'timed out',
  };
  // fetch refuses some ports outright ("bad port": 1, 25, 6000, …), with no code: its cause says why.
  return reasons[code] ?? (error.cause instanceof Error ? error.cause.message : null);
}
