import type { MiddlewareHandler } from 'hono';
import { createOriginCheck, type OriginPolicy } from '../guard/origin-policy.js';

/** Refuse requests whose Host or Origin is not allowed (SPEC X2) with 403. */
export function requireOrigin({ policy, port }: { policy: () => OriginPolicy; port: () => number }): MiddlewareHandler {
  const checkOrigin = createOriginCheck();
  return async function requireOrigin(c, next) {
    const verdict = checkOrigin({ host: c.req.header('host'), origin: c.req.header('origin') }, port(), policy());
    if (!verdict.ok) return c.json({ error: { code: 'forbidden', message: verdict.reason } }, 403);
    await next();
    return undefined;
  };
}
