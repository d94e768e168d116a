/**
 * OAuth to upstream servers from the API (issue 23): start an authorization (the URL to open
 * and the scopes it asks for, shown before anything is granted), finish it with the redirect
 * URL pasted back (a remote host with no browser), wait for it to finish, and revoke. The
 * flow is bound to who started it: the admin token, or the web UI session (by a digest of its
 * cookie). No answer carries a token.
 * @module
 */
import { createHash } from 'node:crypto';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { OAuthFlowError, UnknownServerError } from '../../errors.js';
import type { Caller } from '../../guard/caller.js';
import type { Hub } from '../../hub/create-hub.js';
import type { OAuth, Redirect } from '../../oauth/index.js';
import { createApi, errorResponses, jsonBody, jsonResponse, ServerParams } from './api-schemas.js';

/** What the routes need. */
export type OAuthRouteDeps = {
  readonly hub: Hub;
  readonly oauth: Pick<OAuth, 'flows' | 'revoke'>;
  /** The web UI's cookie name: a flow started from the UI is bound to that session. */
  readonly cookieName?: (() => string) | undefined;
};

const tags = ['oauth'];

/** The start of an authorization, as answered. */
export const AuthorizationStartSchema = z
  .object({
    server: z.string(),
    url: z.string().openapi({ description: 'Open this in a browser to authorize' }),
    state: z.string().openapi({ description: 'Names this authorization (wait, complete); spent once' }),
    authorizationServer: z.string(),
    scopes: z.array(z.string()).openapi({ description: 'What is asked for: show it before authorizing' }),
    expiresAt: z.string(),
  })
  .openapi('AuthorizationStart');

const start = createRoute({
  method: 'post',
  path: '/{name}/authorize',
  tags,
  summary: 'Start an OAuth authorization of an HTTP server: the URL to open and the scopes asked for',
  request: { params: ServerParams },
  responses: { 200: jsonResponse('Started', AuthorizationStartSchema), ...errorResponses(400, 404) },
});
const complete = createRoute({
  method: 'post',
  path: '/{name}/authorize/complete',
  tags,
  summary: 'Finish an authorization with the redirect URL the browser ended on (pasted back)',
  request: {
    params: ServerParams,
    body: jsonBody(z.object({ redirectUrl: z.string().min(1).max(8192) }).strict()),
  },
  responses: {
    200: jsonResponse('Authorized: the server connects now', z.object({ server: z.string() })),
    ...errorResponses(400, 404),
  },
});
const wait = createRoute({
  method: 'get',
  path: '/{name}/authorize/{state}',
  tags,
  summary: 'Wait until the authorization named by `state` finished (at /oauth/callback or pasted)',
  request: { params: ServerParams.extend({ state: z.string().openapi({ param: { name: 'state', in: 'path' } }) }) },
  responses: {
    200: jsonResponse('Authorized: the server connects now', z.object({ server: z.string() })),
    ...errorResponses(400, 404),
  },
});
const revoke = createRoute({
  method: 'delete',
  path: '/{name}/authorization',
  tags,
  summary: "Revoke (RFC 7009, when offered) and forget the server's OAuth tokens (a removed server's too)",
  request: { params: ServerParams },
  responses: {
    200: jsonResponse(
      'What was done',
      z.object({ server: z.string(), forgotten: z.boolean(), revoked: z.boolean(), note: z.string().nullable() }),
    ),
    ...errorResponses(404),
  },
});

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');

/** Who a request is, as a flow's owner: `ui:<digest of the session cookie>` or `token:<id>`. */
export function ownerOf(c: Context, cookieName: (() => string) | undefined): string {
  const cookie = cookieName ? getCookie(c, cookieName()) : undefined;
  if (c.get('uiSession') && cookie) return `ui:${digest(cookie)}`;
  const caller = c.get('caller') as Caller | undefined;
  return `token:${caller === undefined || caller.kind === 'admin' ? 'admin' : caller.tokenId}`;
}

/** The digest a UI session's flows are bound to, from the request's cookie (none: null). */
export function uiOwnerOf(c: Context, cookieName: (() => string) | undefined): string | null {
  const cookie = cookieName ? getCookie(c, cookieName()) : undefined;
  return cookie ? digest(cookie) : null;
}

/** The parameters of a redirect URL (the callback's query). */
export function redirectOf(query: URLSearchParams): Redirect {
  return {
    state: query.get('state'),
    code: query.get('code'),
    iss: query.get('iss'),
    error: query.get('error'),
    errorDescription: query.get('error_description'),
  };
}

const isConfigured = (hub: Pick<Hub, 'getServer'>, name: string): boolean => {
  try {
    hub.getServer(name);
    return true;
  } catch (error) {
    if (error instanceof UnknownServerError) return false;
    throw error;
  }
};

/** Routes mounted at `/api/servers`. */
export function oauthRoutes({ hub, oauth, cookieName }: OAuthRouteDeps): OpenAPIHono {
  const routes = createApi();
  routes.openapi(start, async (c) => {
    const { name } = c.req.valid('param');
    hub.getServer(name);
    return c.json(await oauth.flows.start({ server: name, owner: ownerOf(c, cookieName) }), 200);
  });
  routes.openapi(complete, async (c) => {
    const { name } = c.req.valid('param');
    let url: URL;
    try {
      url = new URL(c.req.valid('json').redirectUrl);
    } catch {
      throw new OAuthFlowError('redirectUrl is not a URL: paste the whole address the browser ended on');
    }
    hub.getServer(name);
    // The state names the server: a redirect is never applied to another one.
    const done = await oauth.flows.finish(redirectOf(url.searchParams), {
      kind: 'owner',
      owner: ownerOf(c, cookieName),
    });
    return c.json(done, 200);
  });
  routes.openapi(wait, async (c) => {
    const { state } = c.req.valid('param');
    const server = await oauth.flows.wait(state, ownerOf(c, cookieName), c.req.raw.signal);
    return c.json({ server }, 200);
  });
  routes.openapi(revoke, async (c) => {
    const { name } = c.req.valid('param');
    const configured = isConfigured(hub, name);
    const done = await oauth.revoke(name);
    // A server no longer configured may still have a record (removed while the service was down).
    if (!configured) {
      if (!done.forgotten) throw new UnknownServerError(name);
      return c.json({ server: name, ...done }, 200);
    }
    // A live connection holds no token of its own: it reconnects now, and waits for an authorization.
    if (done.forgotten && hub.getServer(name).state === 'connected') {
      hub.disconnect(name);
      hub.connect(name);
    }
    return c.json({ server: name, ...done }, 200);
  });
  return routes;
}
