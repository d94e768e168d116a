/**
 * The token verifier (X1, issue 17): a live token is remembered for a second, so a burst
 * of requests costs one query; a revocation through the service forgets it at once, one
 * made behind the service's back holds within that second.
 */

import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import { apiTokensTable } from '../../src/storage/schema.js';
import { createToken, revokeToken } from '../../src/storage/token-repo.js';
import { createTokenVerifier } from '../../src/storage/token-verifier.js';
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
