/**
 * A small typed client of `/api` for the page. It authenticates with the session cookie
 * (sent by the browser, never seen by this script) and sends the session's CSRF token with
 * every write. The token lives in memory only: no `localStorage`, no `sessionStorage`.
 * @module
 */
import type {
  ApiErrorBody,
  AuditEntry,
  AuditQuery,
  Bot,
  BotSampling,
  BotViewInput,
  ChatEvent,
  ChatHistory,
  ChatInput,
  ChatSession,
  Credential,
  Memory,
  NewMemory,
  NewServer,
  NewToken,
  NewTokenRequest,
  PermissionEdit,
  Preset,
  Prompt,
  Quarantines,
  Resource,
  ResourceTemplate,
  Server,
  Skill,
  StderrLines,
  Token,
  Tool,
  ToolCall,
  ToolCallResult,
  Workflow,
} from './api-types.js';
import { readEventStream } from './read-event-stream.js';

/** An answer of `/api` that is not a success, with the API's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The CSRF header `accept-session.ts` checks. */
const CSRF_HEADER = 'X-CSRF-Token';

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');
const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1])).toString();
  return search ? `?${search}` : '';
};

/** The client for one signed-in session; `onSignedOut` runs when the API says the session is gone. */
export function createApiClient(csrfToken: string, onSignedOut: () => void) {
  /** Send a request; a success is the response, a failure the API's error (thrown). */
  async function send(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method !== 'GET') headers[CSRF_HEADER] = csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (response.ok) return response;
    if (response.status === 401) onSignedOut();
    const error = ((await response.json().catch(() => null)) as ApiErrorBody | null)?.error;
    throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? `HTTP ${response.status}`);
  }
  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await send(method, url, body);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }
  /** A chat turn's events as they stream (`POST /api/bots/{slug}/chat` answers server-sent events). */
  async function* chat(slug: string, body: ChatInput, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    const response = await send('POST', `${bot(slug)}/chat`, body, signal);
    if (!response.body) return;
    for await (const { data } of readEventStream(response.body)) yield JSON.parse(data) as ChatEvent;
  }
  const server = (name: string, ...rest: string[]) => `/api/servers/${path(name, ...rest)}`;
  const bot = (slug: string, ...rest: string[]) => `/api/bots/${path(slug, ...rest)}`;

  return {
    servers: () => call<{ servers: Server[] }>('GET', '/api/servers'),
    server: (name: string) => call<{ server: Server }>('GET', server(name)),
    addServer: (body: NewServer) => call<{ server: Server }>('POST', '/api/servers', body),
    removeServer: (name: string) => call<{ removed: string }>('DELETE', server(name)),
    connect: (name: string) => call<{ server: Server }>('POST', server(name, 'connect')),
    disconnect: (name: string) => call<{ server: Server }>('POST', server(name, 'disconnect')),
    tools: (name: string) => call<{ tools: Tool[] }>('GET', server(name, 'tools')),
    resources: (name: string) => call<{ resources: Resource[] }>('GET', server(name, 'resources')),
    resourceTemplates: (name: string) =>
      call<{ resourceTemplates: ResourceTemplate[] }>('GET', server(name, 'resource-templates')),
    prompts: (name: string) => call<{ prompts: Prompt[] }>('GET', server(name, 'prompts')),
    stderr: (name: string, tail: number) => call<StderrLines>('GET', `${server(name, 'stderr')}?tail=${tail}`),
    callTool: (name: string, tool: string, body: ToolCall) =>
      call<{ result: ToolCallResult }>('POST', server(name, 'tools', tool, 'call'), body),
    approve: (name: string, tool: string, hash: string) =>
      call<{ status: 'approved' }>('POST', `${server(name, 'tools', tool, 'approve')}${query({ hash })}`),
    presets: () => call<{ presets: Preset[] }>('GET', '/api/presets'),
    quarantines: () => call<Quarantines>('GET', '/api/quarantines'),
    audit: (filters: AuditQuery) => call<{ entries: AuditEntry[] }>('GET', `/api/audit${query(filters)}`),
    tokens: () => call<{ tokens: Token[] }>('GET', '/api/tokens'),
    createToken: (body: NewTokenRequest) => call<NewToken>('POST', '/api/tokens', body),
    revokeToken: (id: string) => call<undefined>('DELETE', `/api/tokens/${path(id)}`),
    credentials: () => call<{ credentials: Credential[] }>('GET', '/api/credentials'),
    setCredential: (name: string, value: string) => call<undefined>('PUT', `/api/credentials/${path(name)}`, { value }),
    removeCredential: (name: string) => call<undefined>('DELETE', `/api/credentials/${path(name)}`),
    bots: () => call<{ bots: Bot[] }>('GET', '/api/bots'),
    bot: (slug: string) => call<{ bot: Bot }>('GET', bot(slug)),
    denyOrAllow: (slug: string, server: string, edit: PermissionEdit) =>
      call<{ bot: Bot }>('PATCH', bot(slug, 'permissions', server), edit),
    replaceView: (slug: string, view: BotViewInput) => call<{ bot: Bot }>('PUT', bot(slug, 'overrides'), view),
    memories: (slug: string) => call<{ memories: Memory[] }>('GET', bot(slug, 'memories')),
    addMemory: (slug: string, body: NewMemory) => call<{ memory: Memory }>('POST', bot(slug, 'memories'), body),
    skills: (slug: string) => call<{ skills: Skill[] }>('GET', bot(slug, 'skills')),
    workflows: (slug: string) => call<{ workflows: Workflow[] }>('GET', bot(slug, 'workflows')),
    botSampling: (slug: string) => call<BotSampling>('GET', bot(slug, 'sampling')),
    chat,
    chats: (slug: string) => call<{ sessions: ChatSession[] }>('GET', `${bot(slug, 'chats')}?limit=20`),
    chatHistory: (slug: string, id: string) => call<{ chat: ChatHistory }>('GET', bot(slug, 'chats', id)),
    // ---- bots: profile, servers
    // (end of bots)

    // ---- memories, skills, workflows
    // (end of content)

    // ---- server settings
    // (end of settings)

    // ---- resources, prompts, completion
    // Types named inline, so this area's edit stays between its marks.
    readResource: (name: string, uri: string) =>
      call<import('./api-types.js').ReadResourceResult>('POST', server(name, 'resources', 'read'), { uri }),
    getPrompt: (name: string, prompt: string, args: Record<string, string>) =>
      call<import('./api-types.js').GetPromptResult>('POST', server(name, 'prompts', prompt, 'get'), {
        arguments: args,
      }),
    complete: (name: string, body: import('./api-types.js').CompleteRequest) =>
      call<import('./api-types.js').CompleteResult>('POST', server(name, 'complete'), body),
    capabilities: (name: string) =>
      call<{ capabilities: Record<string, unknown> }>('GET', server(name, 'capabilities')),
    // (end of catalog)

    // ---- tool inventory
    // (end of inventory)

    // ---- tool calls
    // (end of tools)

    // ---- audit
    // (end of audit)

    signOut: () => call<undefined>('POST', '/ui/sign-out'),
  };
}

/** The client's type, for components that receive it. */
export type ApiClient = ReturnType<typeof createApiClient>;

/** Ask whether this browser is signed in: the session's CSRF token, or null. */
export async function currentSession(): Promise<string | null> {
  const response = await fetch('/ui/session', { credentials: 'same-origin' });
  if (!response.ok) return null;
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** Sign in with the admin token; the session's CSRF token, or the refusal as an ApiError. */
export async function signInWithToken(token: string): Promise<string> {
  const response = await fetch('/ui/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ token }),
  });
  const data = (await response.json().catch(() => null)) as { csrfToken: string } | ApiErrorBody | null;
  if (response.ok && data && 'csrfToken' in data) return data.csrfToken;
  const error = data && 'error' in data ? data.error : null;
  throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? `HTTP ${response.status}`);
}
