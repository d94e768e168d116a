import type { MiddlewareHandler } from 'hono';
import type { Perimeter } from './admit-request.js';

/** Refuse requests whose Host or Origin is not allowed (SPEC X2) with the perimeter's 403. */
export function requireOrigin({ perimeter }: { perimeter: Perimeter }): MiddlewareHandler {
  return async function requireOrigin(c, next) {
    const refused = perimeter.checkOrigin({ host: c.req.header('host'), origin: c.req.header('origin') });
    if (refused) return c.json(refused.api, refused.status, refused.headers);
    await next();
    return undefined;
  };
}
