/**
 * `/api/credentials` (issue 19, credentials): the keystore from the API, write-only. A secret
 * set with `PUT` is in the keystore (read back from the home's file, as the CLI does), the
 * list holds names only, a bad name or an empty value is a one-line 400 that stores nothing,
 * and a removal of an absent name is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeystore } from '../../../src/storage/keystore.js';
import { startTestService, type TestService } from '../../support/test-service.js';

const SECRET = 'ghp-credentials-route-secret-4f1e';
type ErrorBody = { error: { code: string; message: string } };

describe('/api/credentials', { timeout: 30_000 }, () => {
  let svc: TestService;
  const secrets = new Set<string>();
  const put = (name: string, body: unknown) =>
    svc.api<ErrorBody | null>(`/api/credentials/${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const stored = async () => (await openKeystore({ home: svc.home, env: {} })).names();

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} }, { secrets });
  });
  afterAll(() => svc?.stop());

  it('PUT stores the secret in the keystore; GET lists the name only; the value never comes back', async () => {
    const set = await put('github-token', { value: SECRET });
    expect(set.status).toBe(204);
    expect(await (await openKeystore({ home: svc.home, env: {} })).get('github-token')).toBe(SECRET);
    const listed = await svc.api<{ credentials: { name: string }[] }>('/api/credentials');
    expect(listed).toEqual({ status: 200, body: { credentials: [{ name: 'github-token' }] } });
    // Replaced in place: still one entry, the new value.
    expect((await put('github-token', { value: `${SECRET}-2` })).status).toBe(204);
    expect(await stored()).toEqual(['github-token']);
    const text = await (
      await fetch(`${svc.service.url}/api/credentials`, { headers: { authorization: 'Bearer test-admin-token' } })
    ).text();
    expect(text).not.toContain(SECRET);
    // Held by the service from now on: the log masks it (as a secret read for a connect).
    expect(secrets.has(SECRET) && secrets.has(`${SECRET}-2`)).toBe(true);
  });

  it('a bad name is a one-line 400 naming the allowed characters, and nothing is stored', async () => {
    const before = await stored();
    const held = secrets.size;
    const bad = await put('bad name!', { value: 'never-held-value' });
    expect(bad.status).toBe(400);
    const message = 'invalid credential name "bad name!": use 1 to 64 of A-Z a-z 0-9 _ . -';
    // `issues` names the field, so that the web UI shows it there (not by matching the text).
    expect((bad.body as ErrorBody).error).toEqual({
      code: 'bad_request',
      message,
      issues: [{ field: 'name', message }],
    });
    expect(JSON.stringify(bad.body)).not.toContain('never-held-value');
    expect(await stored()).toEqual(before);
    expect(secrets.size).toBe(held);
  });

  it('an empty value or an unknown field is a 400, and nothing is stored', async () => {
    const before = await stored();
    const empty = await put('other', { value: '' });
    expect(empty.status).toBe(400);
    expect((empty.body as ErrorBody).error.message).toMatch(/^invalid request body: value: /);
    expect((empty.body as ErrorBody).error.message).not.toContain('\n');
    expect((await put('other', { value: 'x', secret: 'y' })).status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('DELETE removes the entry; an absent one is a 404', async () => {
    expect((await put('to-remove', { value: 'v' })).status).toBe(204);
    const removed = await svc.api(`/api/credentials/to-remove`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await stored()).not.toContain('to-remove');
    const again = await svc.api<ErrorBody>(`/api/credentials/to-remove`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('credential "to-remove" is not in the keystore');
  });
});
