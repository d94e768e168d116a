/**
 * `PATCH /api/bots/{slug}/memories/{id}` (issue 19) on the real service: a memory's content
 * or category corrected in place (id and createdAt kept), and every bad change answered with
 * one line naming the field, the memory as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../support/test-service.js';

type Memory = { id: string; category: string; content: string; createdAt: string };
type ErrorBody = { error: { code: string; message: string; issues?: { field: string; message: string }[] } };

describe('PATCH /api/bots/{slug}/memories/{id}', { timeout: 60_000 }, () => {
  let svc: TestService;
  const send = <T>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const memories = async (slug: string) =>
    (await send<{ memories: Memory[] }>('GET', `/api/bots/${slug}/memories`)).body.memories;

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} });
    for (const slug of ['scout', 'other'])
      expect((await send('POST', '/api/bots', { slug, name: slug })).status).toBe(201);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('changes the content, the category or both; the id and createdAt stay', async () => {
    const made = await send<{ memory: Memory }>('POST', '/api/bots/scout/memories', {
      content: 'likes tea',
      category: 'taste',
    });
    const { id, createdAt } = made.body.memory;
    const content = await send<{ memory: Memory }>('PATCH', `/api/bots/scout/memories/${id}`, {
      content: 'likes green tea',
    });
    expect(content.status).toBe(200);
    expect(content.body.memory).toEqual({ id, category: 'taste', content: 'likes green tea', createdAt });
    const both = await send<{ memory: Memory }>('PATCH', `/api/bots/scout/memories/${id}`, {
      content: 'drinks coffee now',
      category: 'habits',
    });
    expect(both.body.memory).toMatchObject({ id, category: 'habits', content: 'drinks coffee now' });
    expect(await memories('scout')).toEqual([{ id, category: 'habits', content: 'drinks coffee now', createdAt }]);
  });

  it('refuses a bad change with one line naming the field, and the memory stays as it was', async () => {
    const made = await send<{ memory: Memory }>('POST', '/api/bots/scout/memories', { content: 'works nights' });
    const before = made.body.memory;
    const cases: [unknown, RegExp, string][] = [
      [{}, /^invalid request body: give content, category or both$/, ''],
      [{ content: '   ' }, /^invalid request body: content: .+$/, 'content'],
      [{ category: 'no/slash' }, /^invalid request body: category: categories are 1 to 64/, 'category'],
      [{ content: 'x', mood: 'sad' }, /^invalid request body: mood: unknown field$/, 'mood'],
      [{ content: 'x'.repeat(4_001) }, /^invalid request body: content: .+$/, 'content'],
    ];
    for (const [body, message, field] of cases) {
      const answer = await send<ErrorBody>('PATCH', `/api/bots/scout/memories/${before.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
      expect(answer.body.error.message).not.toContain('\n');
      expect(answer.body.error.issues?.[0]?.field).toBe(field);
    }
    expect((await memories('scout')).find((m) => m.id === before.id)).toEqual(before);
  });

  it("answers 404 for no such memory, another bot's memory and no such bot", async () => {
    const theirs = (await send<{ memory: Memory }>('POST', '/api/bots/other/memories', { content: 'secret' })).body
      .memory;
    const missing = await send<ErrorBody>('PATCH', '/api/bots/scout/memories/nope', { content: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('bot "scout" has no memory "nope"');
    const foreign = await send<ErrorBody>('PATCH', `/api/bots/scout/memories/${theirs.id}`, { content: 'mine now' });
    expect(foreign.status).toBe(404);
    expect((await memories('other'))[0]).toEqual(theirs);
    const noBot = await send<ErrorBody>('PATCH', `/api/bots/ghost/memories/${theirs.id}`, { content: 'x' });
    expect(noBot.status).toBe(404);
    expect(noBot.body.error.message).toMatch(/ghost/);
  });

  it('is in the OpenAPI document', async () => {
    const doc = await send<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths['/api/bots/{slug}/memories/{item}'] ?? {})).toEqual(
      expect.arrayContaining(['patch', 'delete']),
    );
  });
});
