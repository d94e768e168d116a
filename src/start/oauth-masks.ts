/**
 * The log's masks of the OAuth records in the keystore (a record's JSON, its tokens and client
 * secret): each record name's masks are replaced when it is read or written anew, so a
 * refreshed token's old value leaves the log's masked set (it grew by a few values at every
 * refresh, for the life of the service, and every log line is checked against each).
 * @module
 */

/** Mask record texts by keystore name in `secrets`, replacing what the name masked before. */
export function createOAuthMasks(secrets: Set<string>): (name: string, value: string) => void {
  const byName = new Map<string, readonly string[]>();
  return (name, value) => {
    const next = [value, ...secretsIn(value)];
    const held = new Set(next);
    for (const old of byName.get(name) ?? []) {
      // Another record may mask the same value (a shared client secret): kept while one does.
      if (held.has(old) || [...byName].some(([other, values]) => other !== name && values.includes(old))) continue;
      secrets.delete(old);
    }
    for (const each of next) secrets.add(each);
    byName.set(name, next);
  };
}

/** The tokens and client secret inside a stored record (a JSON text), each masked on its own. */
function secretsIn(value: string): string[] {
  try {
    const record = JSON.parse(value) as {
      tokens?: { access_token?: unknown; refresh_token?: unknown };
      client?: { client_secret?: unknown };
    };
    return [record.tokens?.access_token, record.tokens?.refresh_token, record.client?.client_secret].filter(
      (token): token is string => typeof token === 'string' && token.length >= 8,
    );
  } catch {
    return [];
  }
}
