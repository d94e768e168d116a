/**
 * The SDK's `OAuthClientProvider` for one authorization in progress (issue 23): what the SDK's
 * `auth()` saves while it discovers, registers and builds the authorization URL (PKCE verifier,
 * discovery, the URL itself) stays with the flow, in memory; tokens reach the keystore only when
 * the flow finishes well. A registered client is kept at once (it serves the next flows too).
 * @module
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RemoteServerConfig } from '../config/schema.js';
import type { OAuthStore, SecretStore } from './oauth-store.js';

/** One authorization in progress. */
export type Flow = {
  readonly server: string;
  /** The `state` sent to the authorization server: 256 random bits, spent by the first callback. */
  readonly state: string;
  /** Who started it (`ui:<digest of the session>` or `token:<id>`): only they may finish it. */
  readonly owner: string;
  readonly expiresAt: number;
  verifier: string | null;
  url: URL | null;
  tokens: OAuthTokens | null;
  discovery: OAuthDiscoveryState | null;
};

/** Options of {@link createFlowProvider}. */
export type FlowProviderOptions = {
  readonly flow: Flow;
  readonly config: RemoteServerConfig;
  readonly store: OAuthStore;
  readonly secrets: Pick<SecretStore, 'get'>;
  /** `<origin>/oauth/callback`: exact, registered as is. */
  readonly redirectUrl: string;
  /** `<origin>/oauth/client-metadata.json` when the origin is https (the SDK takes no other). */
  readonly clientMetadataUrl?: string | undefined;
};

/** The client metadata boternity registers (and serves as its client ID metadata document). */
export function clientMetadataOf(redirectUrl: string, scopes?: readonly string[]): OAuthClientMetadata {
  return {
    client_name: 'boternity',
    client_uri: 'https://github.com/boternity/boternity',
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A public client: PKCE binds the code to this flow; no secret to keep.
    token_endpoint_auth_method: 'none',
    ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
  };
}

/** The configured client, when the server entry names one (`oauth.clientId`, secret from the keystore). */
export async function configuredClient(
  config: RemoteServerConfig,
  secrets: Pick<SecretStore, 'get'>,
): Promise<OAuthClientInformationMixed | undefined> {
  const given = config.oauth;
  if (!given?.clientId) return undefined;
  if (!given.clientSecretKey) return { client_id: given.clientId };
  const secret = await secrets.get(given.clientSecretKey);
  if (!secret) throw new Error(`credential "${given.clientSecretKey}" (oauth.clientSecretKey) is not in the keystore`);
  return { client_id: given.clientId, client_secret: secret };
}

/** The provider `auth()` runs a flow with. */
export function createFlowProvider({
  flow,
  config,
  store,
  secrets,
  redirectUrl,
  clientMetadataUrl,
}: FlowProviderOptions): OAuthClientProvider {
  const server = flow.server;
  return {
    redirectUrl,
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    clientMetadata: clientMetadataOf(redirectUrl, config.oauth?.scopes),
    state: () => flow.state,
    clientInformation: async () => (await configuredClient(config, secrets)) ?? (await store.read(server)).client,
    saveClientInformation: async (client) => {
      if (config.oauth?.clientId) return;
      await store.update(server, (record) => ({ ...record, client }));
    },
    // A flow always asks anew: the operator asked to authorize, not to refresh.
    tokens: () => flow.tokens ?? undefined,
    saveTokens: (tokens) => {
      flow.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      flow.url = url;
    },
    saveCodeVerifier: (verifier) => {
      flow.verifier = verifier;
    },
    codeVerifier: () => {
      if (flow.verifier === null) throw new Error('no PKCE verifier for this flow');
      return flow.verifier;
    },
    saveDiscoveryState: (state) => {
      flow.discovery = state;
    },
    discoveryState: () => flow.discovery ?? undefined,
    invalidateCredentials: async (scope) => {
      if (scope === 'tokens' || scope === 'all') flow.tokens = null;
      if (scope === 'discovery' || scope === 'all') flow.discovery = null;
      if ((scope === 'client' || scope === 'all') && !config.oauth?.clientId)
        await store.update(server, ({ client: _gone, ...rest }) => rest);
    },
  };
}
