/**
 * Authorizations in progress (issue 23): `start` runs the SDK's `auth()` up to the
 * authorization URL (discovery, registration, PKCE S256, `resource`, `state`); `finish` takes
 * the redirect back (from `/oauth/callback` or pasted into the CLI), checks `state` (known,
 * unexpired, spent once, its starter's), RFC 9207's `iss`, then lets `auth()` exchange the code;
 * only then are the tokens stored and the server told to connect. Every refusal is one line,
 * and stores nothing.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/schema.js';
import { HubError, OAuthFlowError, UnknownServerError } from '../errors.js';
import { createFlowProvider, type Flow } from './flow-provider.js';
import { tokenFields } from './keep-tokens.js';
import type { OAuthStore, SecretStore } from './oauth-store.js';

/** What the start of an authorization answers: the URL to open and what it asks for. */
export type AuthorizationStart = {
  readonly server: string;
  readonly url: string;
  readonly state: string;
  readonly authorizationServer: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string;
};

/** Who brings the redirect back: the starter itself (CLI paste, API), or a browser. */
export type Finisher =
  | { readonly kind: 'owner'; readonly owner: string }
  | { readonly kind: 'browser'; readonly ui: string | null };

/** The redirect's parameters. */
export type Redirect = {
  readonly state: string | null;
  readonly code: string | null;
  readonly iss: string | null;
  readonly error: string | null;
  readonly errorDescription: string | null;
};

/** What {@link createAuthorizeFlows} needs. */
export type AuthorizeFlowsDeps = {
  readonly store: OAuthStore;
  readonly secrets: Pick<SecretStore, 'get'>;
  /** The server's entry now (null: unknown, or not an HTTP server). */
  readonly config: (server: string) => RemoteServerConfig | null | undefined;
  readonly fetchFor: (serverUrl: string) => FetchLike;
  /** The service's own origin (`http://127.0.0.1:7777`): the redirect URI is `<origin>/oauth/callback`. */
  readonly origin: () => string;
  /** Tokens stored: connect the server. */
  readonly onAuthorized: (server: string) => void;
  readonly now?: (() => number) | undefined;
  /** How long a started authorization may take (default 10 minutes). */
  readonly ttlMs?: number | undefined;
};

/** A flow, the upstream URL it was started for (the tokens are bound to it), and its outcome. */
type Pending = Flow & {
  readonly serverUrl: string;
  readonly settled: Promise<string>;
  settle(error: Error | null): void;
};

/** The authorizations in progress. */
export type AuthorizeFlows = {
  start(options: { server: string; owner: string }): Promise<AuthorizationStart>;
  finish(redirect: Redirect, by: Finisher): Promise<{ server: string }>;
  /** True when the pending flow of `state` was started from a web UI session (its callback needs that session). */
  startedInUi(state: string): boolean | Promise<boolean>;
  /** Whether this process holds the flow of `state`: `pending`, `spent` (finished or refused, not yet expired), or null. */
  holds(state: string): 'pending' | 'spent' | null;
  /** Resolves with the server once the flow of `state` (its owner's) finished well; rejects with why not. */
  wait(state: string, owner: string, signal: AbortSignal): Promise<string>;
};

/** The redirect URI of a service at `origin`. */
export const callbackUrl = (origin: string) => `${origin.replace(/\/+$/, '')}/oauth/callback`;

/** Where boternity serves its client ID metadata document, when its origin is https (the SDK's rule). */
export const clientMetadataUrlOf = (origin: string) =>
  origin.startsWith('https://') ? `${origin.replace(/\/+$/, '')}/oauth/client-metadata.json` : undefined;

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** Create the registry of flows. */
export function createAuthorizeFlows(deps: AuthorizeFlowsDeps): AuthorizeFlows {
  const { store, secrets, now = Date.now, ttlMs = 10 * 60_000 } = deps;
  const flows = new Map<string, Pending>();
  // Spent flows, kept until they would have expired: a CLI waits on one it may ask about late.
  const spent = new Map<string, Pending>();

  const entryOf = (server: string): RemoteServerConfig => {
    const entry = deps.config(server);
    if (entry === undefined) throw new UnknownServerError(server);
    if (entry === null)
      throw new OAuthFlowError(`server "${server}" is not an HTTP server: OAuth applies to http and sse servers`);
    if (entry.credentialKey || Object.keys(entry.headers).some((h) => h.toLowerCase() === 'authorization'))
      throw new OAuthFlowError(
        `server "${server}" sends a static credential (credentialKey or an Authorization header): remove it to use OAuth`,
      );
    return entry;
  };
  const providerFor = (flow: Flow, entry: RemoteServerConfig) =>
    createFlowProvider({
      flow,
      config: entry,
      store,
      secrets,
      redirectUrl: callbackUrl(deps.origin()),
      clientMetadataUrl: clientMetadataUrlOf(deps.origin()),
    });
  const sweep = () => {
    for (const [state, flow] of spent) if (flow.expiresAt <= now()) spent.delete(state);
    for (const [state, flow] of flows)
      if (flow.expiresAt <= now()) {
        flows.delete(state);
        flow.settle(new OAuthFlowError(`the authorization of "${flow.server}" expired: start again`));
      }
  };

  const start: AuthorizeFlows['start'] = async ({ server, owner }) => {
    sweep();
    const entry = entryOf(server);
    let settle: (error: Error | null) => void = () => undefined;
    const settled = new Promise<string>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve(server));
    });
    settled.catch(() => undefined);
    const flow: Pending = {
      server,
      state: randomBytes(32).toString('base64url'),
      owner,
      expiresAt: now() + ttlMs,
      serverUrl: entry.url,
      verifier: null,
      url: null,
      tokens: null,
      discovery: null,
      settled,
      settle,
    };
    const kept = await store.read(server);
    // A resource metadata URL found for another URL of this name is not this upstream's.
    const same = kept.serverUrl === undefined || kept.serverUrl === entry.url;
    const known = same ? kept.resourceMetadataUrl : undefined;
    // Asked for: the entry's scopes, else what the upstream's 401 asked for, else (the SDK) its metadata's scopes_supported.
    const scope = entry.oauth?.scopes?.join(' ') ?? (same ? kept.challengeScope : undefined);
    try {
      const result = await auth(providerFor(flow, entry), {
        serverUrl: entry.url,
        ...(scope ? { scope } : {}),
        ...(known ? { resourceMetadataUrl: new URL(known) } : {}),
        fetchFn: deps.fetchFor(entry.url),
      });
      if (result !== 'REDIRECT' || flow.url === null)
        throw new Error('the authorization server gave no authorization URL');
    } catch (error) {
      throw new OAuthFlowError(`authorization of "${server}" cannot start: ${oneLine(error)}`, { cause: error });
    }
    const metadata = flow.discovery?.authorizationServerMetadata;
    // OAuth 2.1 and the MCP spec: PKCE S256, and a server that does not say it has it is refused.
    if (!metadata?.code_challenge_methods_supported?.includes('S256'))
      throw new OAuthFlowError(
        `authorization of "${server}" refused: its authorization server does not offer PKCE S256`,
      );
    flows.set(flow.state, flow);
    return {
      server,
      url: flow.url.href,
      state: flow.state,
      authorizationServer: flow.discovery?.authorizationServerUrl ?? flow.url.origin,
      scopes: (flow.url.searchParams.get('scope') ?? '').split(' ').filter(Boolean),
      expiresAt: new Date(flow.expiresAt).toISOString(),
    };
  };

  const finish: AuthorizeFlows['finish'] = async (redirect, by) => {
    sweep();
    const flow = redirect.state ? flows.get(redirect.state) : undefined;
    if (!flow)
      throw new OAuthFlowError('unknown, used or expired authorization state: start again with bnity mcp auth NAME');
    const mine =
      by.kind === 'owner' ? by.owner === flow.owner : !flow.owner.startsWith('ui:') || flow.owner === `ui:${by.ui}`;
    if (!mine) throw new HubError('forbidden', 'this authorization was started by another session');
    // Spent now, whatever follows: a state (and its code) is good for one try.
    flows.delete(flow.state);
    spent.set(flow.state, flow);
    try {
      const server = await complete(flow, redirect);
      flow.settle(null);
      deps.onAuthorized(server);
      return { server };
    } catch (error) {
      const failure =
        error instanceof HubError
          ? error
          : new OAuthFlowError(`authorization of "${flow.server}" failed: ${oneLine(error)}`, { cause: error });
      flow.settle(failure);
      throw failure;
    }
  };

  const complete = async (flow: Pending, redirect: Redirect): Promise<string> => {
    const server = flow.server;
    if (redirect.error)
      throw new OAuthFlowError(
        `the authorization server refused "${server}": ${redirect.error}${redirect.errorDescription ? ` (${redirect.errorDescription})` : ''}`,
      );
    if (!redirect.code) throw new OAuthFlowError(`the redirect for "${server}" carries no code`);
    const metadata = flow.discovery?.authorizationServerMetadata;
    // RFC 9207: the answer names its issuer; a mix-up attack shows as another one.
    if (redirect.iss !== null && redirect.iss !== metadata?.issuer)
      throw new OAuthFlowError(
        `the redirect for "${server}" names issuer ${redirect.iss}, not ${metadata?.issuer}: refused`,
      );
    const sendsIss = (metadata as Record<string, unknown> | undefined)?.authorization_response_iss_parameter_supported;
    if (redirect.iss === null && sendsIss === true)
      throw new OAuthFlowError(
        `the redirect for "${server}" names no issuer, though ${metadata?.issuer} sends one: refused`,
      );
    const entry = entryOf(server);
    if (entry.url !== flow.serverUrl)
      throw new OAuthFlowError(`the URL of "${server}" changed during its authorization: start again`);
    await auth(providerFor(flow, entry), {
      serverUrl: entry.url,
      authorizationCode: redirect.code,
      fetchFn: deps.fetchFor(entry.url),
    });
    const tokens = flow.tokens;
    if (!tokens) throw new OAuthFlowError(`the authorization server gave "${server}" no token`);
    const issuer = flow.discovery?.authorizationServerUrl ?? '';
    await store.update(server, (record) => ({
      ...record,
      ...tokenFields(tokens, issuer, now()),
      discovery: flow.discovery ?? undefined,
      serverUrl: flow.serverUrl,
    }));
    return server;
  };

  const wait: AuthorizeFlows['wait'] = (state, owner, signal) => {
    const flow = flows.get(state) ?? spent.get(state);
    if (!flow || flow.owner !== owner)
      return Promise.reject(new OAuthFlowError('unknown, used or expired authorization state'));
    return new Promise((resolve, reject) => {
      const stop = () => reject(new HubError('request_ended', 'stopped waiting'));
      signal.addEventListener('abort', stop, { once: true });
      flow.settled.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  };

  const startedInUi = (state: string) => flows.get(state)?.owner.startsWith('ui:') === true;

  const holds: AuthorizeFlows['holds'] = (state) => {
    sweep();
    return flows.has(state) ? 'pending' : spent.has(state) ? 'spent' : null;
  };

  return { start, finish, wait, startedInUi, holds };
}
