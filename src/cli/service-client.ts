/**
 * How the CLI reaches a running service: `--url` or `BOTERNITY_URL`, else
 * 127.0.0.1 on `BOTERNITY_PORT` (7777); the admin token from `BOTERNITY_ADMIN_TOKEN` or
 * the home directory's `admin-token` file.
 * @module
 */
import { HubError } from '../errors.js';
import { readAdminToken } from '../storage/admin-token.js';

/** A client of the control API, or null fields when no service answers. */
export type ServiceClient = {
  baseUrl: string;
  get<T>(path: string): Promise<T>;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
};

/** Resolve the service URL and token. */
export async function createServiceClient({
  url,
  home,
  env = process.env,
}: {
  url?: string;
  home: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ServiceClient> {
  const baseUrl = (url ?? env.BOTERNITY_URL ?? `http://127.0.0.1:${env.BOTERNITY_PORT ?? 7777}`).replace(/\/+$/, '');
  const token = env.BOTERNITY_ADMIN_TOKEN?.trim() || (await readAdminToken(home));
  return {
    baseUrl,
    get<T>(path: string): Promise<T> {
      return request<T>('GET', path);
    },
    request,
  };
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status === 401)
      throw new HubError(
        'unauthorized',
        `${baseUrl} refused the admin token: set BOTERNITY_ADMIN_TOKEN or --home to the service's data directory`,
      );
    if (!response.ok) {
      const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new HubError(
        'upstream_failed',
        `${baseUrl}${path} answered ${response.status}: ${answer?.error?.message ?? response.statusText}`,
      );
    }
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }
}

/** True when the error means nothing listens at the URL. */
export function isUnreachable(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return error instanceof TypeError && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH'].includes(cause?.code ?? '');
}
