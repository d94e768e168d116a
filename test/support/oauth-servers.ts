/**
 * A real OAuth 2.1 authorization server (`oidc-provider`: PKCE S256 required, dynamic client
 * registration, refresh-token rotation, RFC 8707 resource indicators, RFC 9207 `iss`, RFC 7009
 * revocation, short-lived access tokens) and an SDK MCP server on Streamable HTTP that checks
 * its bearer tokens against it and serves RFC 9728 metadata; both on 127.0.0.1 in the test's
 * process. `approve(url)` drives the provider's own login and consent pages with plain HTTP
 * requests, as a browser would, and returns the address the browser would end on.
 * @module
 */
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Provider, { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { serveStreamableHttp } from './serve-streamable-http.mjs';

/** Every stored object of the provider, by model: the test can see and destroy refresh tokens. */
class MapAdapter implements Adapter {
  static stores = new Map<string, Map<string, AdapterPayload>>();
  readonly #store: Map<string, AdapterPayload>;
  constructor(name: string) {
    const store = MapAdapter.stores.get(name) ?? new Map<string, AdapterPayload>();
    MapAdapter.stores.set(name, store);
    this.#store = store;
  }
  async upsert(id: string, payload: AdapterPayload) {
    this.#store.set(id, payload);
  }
  async find(id: string) {
    return this.#store.get(id);
  }
  async findByUserCode() {
    return undefined;
  }
  async findByUid(uid: string) {
    for (const payload of this.#store.values()) if (payload.uid === uid) return payload;
    return undefined;
  }
  async consume(id: string) {
    const payload = this.#store.get(id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.#store.delete(id);
  }
  async revokeByGrantId(grantId: string) {
    for (const [id, payload] of this.#store) if (payload.grantId === grantId) this.#store.delete(id);
  }
}

const listen = (server: HttpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/** Options of {@link startOAuthPair}. */
export type OAuthPairOptions = {
  /** Access token lifetime in seconds (default 60). */
  readonly accessTokenTtl?: number;
  /** Tools the MCP server lists. */
  readonly tools?: readonly string[];
  /** Override the RFC 9728 metadata's `authorization_servers` (an SSRF test). */
  readonly authorizationServers?: readonly string[];
  /**
   * The RFC 9728 `resource`: the MCP URL (default) or its bare origin with no path
   * (`http://127.0.0.1:port`, no trailing slash). The provider then takes that exact string
   * only, as an exact-matching server does (anything else is `invalid_target`).
   */
  readonly resource?: 'url' | 'origin';
  /** The 401's `WWW-Authenticate`: naming the metadata and the scope (default), or a bare `Bearer`. */
  readonly challenge?: 'metadata' | 'bare';
  /** The metadata's `scopes_supported` (default `['mcp:tools']`, the challenge's scope). */
  readonly scopesSupported?: readonly string[];
};

/** The running pair. */
export type OAuthPair = {
  readonly issuer: string;
  readonly mcpUrl: string;
  readonly provider: Provider;
  /** Requests the MCP server answered 401, and tool calls it answered. */
  readonly counts: { unauthorized: number; calls: number; registrations: number; refreshes: number };
  /** The RFC 9728 `resource` the MCP server names (and the only one the provider accepts when it is the origin). */
  readonly resource: string;
  /** Every bearer token the MCP server was sent, valid or not (a token sent to the wrong host shows here). */
  readonly presented: string[];
  /** Destroy every access token at the provider: the next request meets a 401 and refreshes. */
  revokeAccessTokens(): number;
  /** Destroy every refresh token at the provider (as an admin revoking the grant would). */
  revokeRefreshTokens(): number;
  /** How many refresh tokens the provider holds now. */
  refreshTokens(): number;
  close(): Promise<void>;
};

/** Start the authorization server and the MCP server it protects. */
export async function startOAuthPair({
  accessTokenTtl = 60,
  tools = ['echo', 'add'],
  authorizationServers,
  resource: resourceKind = 'url',
  challenge = 'metadata',
  scopesSupported = ['mcp:tools'],
}: OAuthPairOptions = {}): Promise<OAuthPair> {
  MapAdapter.stores = new Map();
  const asHttp = createServer();
  const asPort = await listen(asHttp);
  const issuer = `http://127.0.0.1:${asPort}`;
  const counts = { unauthorized: 0, calls: 0, registrations: 0, refreshes: 0 };
  const presented: string[] = [];
  // The MCP server's port first: the provider names it as the resource.
  let mcpHttp: HttpServer | null = null;
  const mcpPort = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const resource = resourceKind === 'origin' ? `http://127.0.0.1:${mcpPort}` : mcpUrl;
  const provider = new Provider(issuer, {
    adapter: MapAdapter,
    clients: [],
    cookies: { keys: ['a test key, not a secret'] },
    scopes: ['openid', 'offline_access', 'mcp:tools'],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (resourceKind === 'origin' && indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: 'mcp:tools',
            accessTokenFormat: 'opaque',
            accessTokenTTL: accessTokenTtl,
          };
        },
      },
    },
    pkce: { required: () => true },
    issueRefreshToken: () => true,
    rotateRefreshToken: true,
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
  });
  provider.on('registration_create.success', () => {
    counts.registrations += 1;
  });
  provider.on('grant.success', (ctx) => {
    const params = (ctx as { oidc?: { params?: { grant_type?: string } } }).oidc?.params;
    if (params?.grant_type === 'refresh_token') counts.refreshes += 1;
  });
  asHttp.on('request', provider.callback());

  const metadata = {
    resource,
    authorization_servers: authorizationServers ?? [issuer],
    scopes_supported: scopesSupported,
    bearer_methods_supported: ['header'],
  };
  const prmPath = '/.well-known/oauth-protected-resource/mcp';
  // The resource server: RFC 9728 metadata open, everything else for a live token of the provider's.
  const guard = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.url === prmPath || req.url === '/.well-known/oauth-protected-resource') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
      return false;
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token) presented.push(token);
    const found = token ? await provider.AccessToken.find(token) : undefined;
    if (found && !found.isExpired && found.aud === resource) return true;
    counts.unauthorized += 1;
    res
      .writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate':
          challenge === 'bare'
            ? 'Bearer'
            : `Bearer resource_metadata="http://127.0.0.1:${mcpPort}${prmPath}", scope="mcp:tools"`,
      })
      .end('{"error":"invalid_token"}');
    return false;
  };
  mcpHttp = serveStreamableHttp({
    port: mcpPort,
    guard,
    newSession: () => {
      const server = new Server({ name: 'oauth-protected', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: tools.map((name) => ({ name, inputSchema: { type: 'object' as const } })),
      }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        counts.calls += 1;
        return { content: [{ type: 'text' as const, text: `called ${request.params.name}` }] };
      });
      return { server };
    },
  });
  await new Promise<void>((resolve) => mcpHttp?.once('listening', () => resolve()));

  const models = () => MapAdapter.stores.get('RefreshToken') ?? new Map();
  return {
    issuer,
    mcpUrl,
    provider,
    counts,
    resource,
    presented,
    revokeAccessTokens: () => {
      const store = MapAdapter.stores.get('AccessToken') ?? new Map();
      const n = store.size;
      store.clear();
      return n;
    },
    revokeRefreshTokens: () => {
      const store = models();
      const n = store.size;
      store.clear();
      return n;
    },
    refreshTokens: () => models().size,
    close: async () => {
      mcpHttp?.closeAllConnections();
      asHttp.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => mcpHttp?.close(resolve)),
        new Promise((resolve) => asHttp.close(resolve)),
      ]);
    },
  };
}

/** A cookie jar of one browser. */
function createJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take: (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
    },
  };
}

/**
 * Sign in and consent at the provider, as a browser opening `authorizationUrl` would; resolves
 * with the address it is finally sent to (the redirect URI with `code`, `state`, `iss`), not fetched.
 */
export async function approve(authorizationUrl: string, { login = 'alice' }: { login?: string } = {}): Promise<string> {
  const jar = createJar();
  const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri') ?? '';
  let next: { url: string; method: string; body?: URLSearchParams } = { url: authorizationUrl, method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(next.body ? { body: next.body } : {}),
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next.url).href;
      if (target.startsWith(redirectUri)) return target;
      next = { url: target, method: 'GET' };
      continue;
    }
    const html = await response.text();
    // The provider's dev interaction pages: a login form, then a consent form.
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${next.url} (${response.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const match of html.matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/g))
      fields.set(match[1] ?? '', match[2] ?? '');
    if (fields.has('login')) fields.set('login', login);
    if (fields.has('password')) fields.set('password', 'any');
    next = { url: new URL(action.replace(/&amp;/g, '&'), next.url).href, method: 'POST', body: fields };
  }
  throw new Error('the authorization did not end in a redirect');
}
