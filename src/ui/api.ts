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
  BotViewInput,
  ChatEvent,
  ChatHistory,
  ChatInput,
  ChatSession,
  Credential,
  Memory,
  MemoryChange,
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
  SkillInput,
  StderrLines,
  Token,
  Tool,
  ToolCall,
  ToolCallResult,
  Workflow,
  WorkflowInput,
  WorkflowRun,
} from './api-types.js';
import { operatorRoutes } from './operator-api.js';
import { readEventStream } from './read-event-stream.js';
import { createServerActions } from './server-actions-api.js';

/** An answer of `/api` that is not a success, with the API's code, message and the fields it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** The CSRF header `admit-request.ts` checks. */
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
    throw new ApiError(
      response.status,
      error?.code ?? 'error',
      error?.message ?? `HTTP ${response.status}`,
      error?.issues,
    );
  }
  /** GETs in flight by URL, shared by parts of a page asking the same; cleared by a write or a live event (`forget`). */
  const reading = new Map<string, Promise<unknown>>();
  async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await send(method, url, body);
    // A write may have changed what a GET in flight will answer: a read after it starts afresh.
    if (method !== 'GET') reading.clear();
    return (response.status === 204 ? undefined : await response.json()) as T;
  }
  function read<T>(url: string): Promise<T> {
    const shared = reading.get(url);
    if (shared) return shared as Promise<T>;
    const answer: Promise<T> = call<T>('GET', url).finally(() => {
      if (reading.get(url) === answer) reading.delete(url);
    });
    reading.set(url, answer);
    return answer;
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
    /** Reads asked from now on do not join those in flight: the live stream said something changed. */
    forget: () => reading.clear(),
    servers: () => read<{ servers: Server[] }>('/api/servers'),
    server: (name: string) => read<{ server: Server }>(server(name)),
    addServer: (body: NewServer) => call<{ server: Server }>('POST', '/api/servers', body),
    removeServer: (name: string) => call<{ removed: string }>('DELETE', server(name)),
    connect: (name: string) => call<{ server: Server }>('POST', server(name, 'connect')),
    disconnect: (name: string) => call<{ server: Server }>('POST', server(name, 'disconnect')),
    ...createServerActions(call, server),
    tools: (name: string) => read<{ tools: Tool[] }>(server(name, 'tools')),
    resources: (name: string) => read<{ resources: Resource[] }>(server(name, 'resources')),
    resourceTemplates: (name: string) =>
      read<{ resourceTemplates: ResourceTemplate[] }>(server(name, 'resource-templates')),
    prompts: (name: string) => read<{ prompts: Prompt[] }>(server(name, 'prompts')),
    stderr: (name: string, tail: number) => read<StderrLines>(`${server(name, 'stderr')}?tail=${tail}`),
    callTool: (name: string, tool: string, body: ToolCall) =>
      call<{ result: ToolCallResult }>('POST', server(name, 'tools', tool, 'call'), body),
    approve: (name: string, tool: string, hash: string) =>
      call<{ status: 'approved' }>('POST', `${server(name, 'tools', tool, 'approve')}${query({ hash })}`),
    presets: () => read<{ presets: Preset[] }>('/api/presets'),
    quarantines: () => read<Quarantines>('/api/quarantines'),
    audit: (filters: AuditQuery) => read<{ entries: AuditEntry[] }>(`/api/audit${query(filters)}`),
    tokens: () => read<{ tokens: Token[] }>('/api/tokens'),
    createToken: (body: NewTokenRequest) => call<NewToken>('POST', '/api/tokens', body),
    revokeToken: (id: string) => call<undefined>('DELETE', `/api/tokens/${path(id)}`),
    credentials: () => read<{ credentials: Credential[] }>('/api/credentials'),
    setCredential: (name: string, value: string) => call<undefined>('PUT', `/api/credentials/${path(name)}`, { value }),
    removeCredential: (name: string) => call<undefined>('DELETE', `/api/credentials/${path(name)}`),
    bots: () => read<{ bots: Bot[] }>('/api/bots'),
    bot: (slug: string) => read<{ bot: Bot }>(bot(slug)),
    denyOrAllow: (slug: string, server: string, edit: PermissionEdit) =>
      call<{ bot: Bot }>('PATCH', bot(slug, 'permissions', server), edit),
    replaceView: (slug: string, view: BotViewInput) => call<{ bot: Bot }>('PUT', bot(slug, 'overrides'), view),
    memories: (slug: string) => read<{ memories: Memory[] }>(bot(slug, 'memories')),
    addMemory: (slug: string, body: NewMemory) => call<{ memory: Memory }>('POST', bot(slug, 'memories'), body),
    skills: (slug: string) => read<{ skills: Skill[] }>(bot(slug, 'skills')),
    workflows: (slug: string) => read<{ workflows: Workflow[] }>(bot(slug, 'workflows')),
    chat,
    chats: (slug: string) => read<{ sessions: ChatSession[] }>(`${bot(slug, 'chats')}?limit=20`),
    chatHistory: (slug: string, id: string) => read<{ chat: ChatHistory }>(bot(slug, 'chats', id)),
    // ---- bots: profile, servers
    createBot: (body: import('./api-types.js').NewBot) => call<{ bot: Bot }>('POST', '/api/bots', body),
    updateBot: (slug: string, patch: import('./api-types.js').BotPatch) =>
      call<{ bot: Bot }>('PATCH', bot(slug), patch),
    // With its view: the bot is gone from both places, not left behind as config-only.
    deleteBot: (slug: string) => call<{ removed: string }>('DELETE', `${bot(slug)}?withView=true`),
    addBotServer: (slug: string, name: string) => call<{ bot: Bot }>('POST', bot(slug, 'servers', name)),
    removeBotServer: (slug: string, name: string) => call<{ bot: Bot }>('DELETE', bot(slug, 'servers', name)),
    // (end of bots)

    // ---- memories, skills, workflows
    changeMemory: (slug: string, id: string, body: MemoryChange) =>
      call<{ memory: Memory }>('PATCH', bot(slug, 'memories', id), body),
    deleteMemory: (slug: string, id: string) => call<{ removed: string }>('DELETE', bot(slug, 'memories', id)),
    saveSkill: (slug: string, name: string, body: SkillInput) =>
      call<{ skill: Skill }>('PUT', bot(slug, 'skills', name), body),
    deleteSkill: (slug: string, name: string) => call<{ removed: string }>('DELETE', bot(slug, 'skills', name)),
    renderSkill: (slug: string, name: string, args: Record<string, string>) =>
      call<{ text: string }>('POST', bot(slug, 'skills', name, 'render'), { arguments: args }),
    saveWorkflow: (slug: string, name: string, body: WorkflowInput) =>
      call<{ workflow: Workflow }>('PUT', bot(slug, 'workflows', name), body),
    deleteWorkflow: (slug: string, name: string) => call<{ removed: string }>('DELETE', bot(slug, 'workflows', name)),
    runWorkflow: (slug: string, name: string, input: unknown) =>
      call<{ run: WorkflowRun }>('POST', bot(slug, 'workflows', name, 'run'), input === undefined ? {} : { input }),
    // (end of content)

    // ---- server settings
    /**
     * `PATCH /api/servers/{name}` with the fields a form changed. A refusal is answered, not
     * thrown, with the API's `issues` so that each can be shown next to its field.
     */
    patchServer: async (
      name: string,
      patch: import('./api-types.js').ServerPatch,
    ): Promise<import('./api-types.js').SettingsSaved> => {
      const response = await fetch(server(name), {
        method: 'PATCH',
        headers: { accept: 'application/json', 'content-type': 'application/json', [CSRF_HEADER]: csrfToken },
        credentials: 'same-origin',
        body: JSON.stringify(patch),
      });
      const body = (await response.json().catch(() => null)) as ({ server: Server } & Partial<ApiErrorBody>) | null;
      if (response.ok && body) return { ok: true, server: body.server };
      if (response.status === 401) onSignedOut();
      const error = body?.error;
      return {
        ok: false,
        status: response.status,
        message: error?.message ?? `HTTP ${response.status}`,
        issues: error?.issues ?? [],
      };
    },
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
    capabilities: (name: string) => read<{ capabilities: Record<string, unknown> }>(server(name, 'capabilities')),
    // (end of catalog)

    // ---- tool inventory
    /** "Allow all" of one server: its allow and deny lists dropped. */
    dropPermissions: (slug: string, server: string) => call<{ bot: Bot }>('DELETE', bot(slug, 'permissions', server)),
    // (end of inventory)

    // ---- tool calls
    /**
     * A test-tool call with its progress as it comes (the route's server-sent events);
     * resolves with the answer, throws the API's error. Aborting `signal` cancels the call
     * (the service sees the request go and cancels it upstream).
     */
    watchToolCall: async (
      name: string,
      tool: string,
      body: ToolCall,
      {
        signal,
        onProgress,
      }: { signal: AbortSignal; onProgress: (progress: import('./api-types.js').ToolCallProgress) => void },
    ): Promise<import('./api-types.js').ToolCallAnswer> => {
      const response = await fetch(server(name, 'tools', tool, 'call'), {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', [CSRF_HEADER]: csrfToken },
        credentials: 'same-origin',
        body: JSON.stringify(body),
        signal,
      });
      // Refused before the call began: the same JSON error as any call's.
      if (!response.ok) {
        if (response.status === 401) onSignedOut();
        const error = ((await response.json().catch(() => null)) as ApiErrorBody | null)?.error;
        throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? `HTTP ${response.status}`);
      }
      for await (const { event, data } of readEventStream(response.body as ReadableStream<Uint8Array>)) {
        const value = JSON.parse(data);
        if (event === 'progress') onProgress(value);
        else if (event === 'result') return value;
        else if (event === 'error') throw new ApiError(value.status, value.error.code, value.error.message);
      }
      throw new ApiError(502, 'error', 'the call ended without an answer');
    },
    // (end of tools)
    // ---- audit
    /** A page of the log; `filters.before` is the previous page's `nextCursor`. */
    auditLog: (filters: AuditQuery) => read<import('./api-types.js').AuditLog>(`/api/audit${query(filters)}`),
    // (end of audit)

    signOut: () => call<undefined>('POST', '/ui/sign-out'),
    ...operatorRoutes({ call, read }),
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
