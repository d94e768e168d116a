/**
 * The token verifier (X1, issue 17): a live token is remembered for a second, so a burst
 * of requests costs one query; a revocation through the service forgets it at once, one
 * made behind the service's back holds within that second.
 */

import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/errors.js';
import { errorReply } from '../../src/http/perimeter/http-errors.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { apiTokensTable } from '../../src/storage/schema.js';
import { createToken, revokeToken } from '../../src/storage/token-repo.js';
import { createTokenVerifier } from '../../src/storage/token-verifier.js';
import { captureLog } from '../support/capture-log.js';
import { DIALECTS, openTestDb } from '../support/test-db.js';

describe.each(DIALECTS)('createTokenVerifier (%s)', (dialect) => {
  let store: OpenDb;
  let clock: number;
  beforeEach(async () => {
    store = await openTestDb(dialect);
    clock = 1_000_000;
  });
  afterEach(() => store.close());

  it('answers a live token, refuses an unknown one', async () => {
    const verify = createTokenVerifier(store.db, { now: () => clock });
    const { id, token } = await createToken(store.db, { name: 'agent' });
    expect(await verify(token)).toEqual({ kind: 'client', tokenId: id, name: 'agent' });
    expect(await verify('bnt_nope')).toBeNull();
    expect(await verify('not-a-token')).toBeNull();
  });

  it('forgets a token revoked through the service at once', async () => {
    const verify = createTokenVerifier(store.db, { now: () => clock });
    const { id, token } = await createToken(store.db, { name: 'agent' });
    expect(await verify(token)).not.toBeNull();
    await revokeToken(store.db, id);
    verify.forget(id);
    expect(await verify(token)).toBeNull();
  });

  it('remembers a refused token for a second too: a client retrying one costs a query a second', async () => {
    const verify = createTokenVerifier(store.db, { now: () => clock });
    const { id, token } = await createToken(store.db, { name: 'agent' });
    await revokeToken(store.db, id);
    expect(await verify(token)).toBeNull();
    // Made live again behind the verifier's back (no API does this): the refusal is remembered.
    await store.db.update(apiTokensTable).set({ revokedAt: null }).where(eq(apiTokensTable.id, id));
    clock += 999;
    expect(await verify(token)).toBeNull();
    clock += 1;
    expect(await verify(token)).toEqual({ kind: 'client', tokenId: id, name: 'agent' });
  });

  it('takes a revocation made elsewhere within a second', async () => {
    const verify = createTokenVerifier(store.db, { now: () => clock });
    const { id, token } = await createToken(store.db, { name: 'agent' });
    expect(await verify(token)).not.toBeNull();
    await revokeToken(store.db, id);
    clock += 999;
    expect(await verify(token)).not.toBeNull();
    clock += 1;
    expect(await verify(token)).toBeNull();
  });
});

describe.each(DIALECTS)('createTokenVerifier while the database does not answer (%s)', (dialect) => {
  it('takes a token seen in the last minutes as it was, refuses an unseen one with a 503 error, says so once', async () => {
    const store = await openTestDb(dialect);
    let clock = 1_000_000;
    const { log, lines } = captureLog();
    const verify = createTokenVerifier(store.db, {
      now: () => clock,
      log,
      timeoutMs: () => 500,
    });
    const { id, token } = await createToken(store.db, { name: 'agent' });
    const other = await createToken(store.db, { name: 'other' });
    expect(await verify(token)).toEqual({ kind: 'client', tokenId: id, name: 'agent' });
    await store.close();
    // Five minutes on, long past the second a live token is remembered for: the lookup fails.
    clock += 5 * 60_000;
    expect(await verify(token)).toEqual({ kind: 'client', tokenId: id, name: 'agent' });
    const refused = await verify(other.token).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect((refused as Error).message).toBe('the database does not answer (checking a token): retry in a few seconds');
    expect(errorReply(refused)?.status).toBe(503);
    // Past the grace, a token seen before is refused too.
    clock += 10 * 60_000;
    await expect(verify(token)).rejects.toBeInstanceOf(StoreUnavailableError);
    // Said once, however many lookups failed (a touch of the token's use that failed is its own line).
    expect(lines.filter((line) => line.msg.startsWith('the database does not answer')).map((line) => line.msg)).toEqual(
      [
        'the database does not answer token lookups: tokens seen in the last 10 minutes are taken as they were, others refused (503), until it answers',
      ],
    );
  });
});
