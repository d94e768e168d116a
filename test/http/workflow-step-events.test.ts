/**
 * `workflow_step_finished` on `/api/events` (issue 19) on the real service, with the gate
 * server as the bot's upstream: each step's event comes as that step ends, before the run
 * answers (the second step is held on a test HTTP server until the first step's event has
 * been seen), carries the run's id, status, duration and a bounded error but never the
 * result, and `?bot=` keeps only that bot's runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_SERVER } from '../support/fixtures.js';
import { startHeldHttp } from '../support/held-http.js';
import type { SseEvent } from '../support/sse-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type Data = Record<string, unknown>;
type Run = { runId: string; status: string; failedStep: string | null; steps: { id: string; status: string }[] };

describe('workflow_step_finished on /api/events', { timeout: 60_000 }, () => {
  let svc: TestService;
  let held: Awaited<ReturnType<typeof startHeldHttp>>;
  const send = <T>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const data = (event: SseEvent) => event.data as Data;
  const of = (type: string, runId?: string) => (e: SseEvent) =>
    e.event === type && (runId === undefined || data(e).runId === runId);

  beforeAll(async () => {
    held = await startHeldHttp();
    svc = await startTestService({ mcpServers: { gate: { command: process.execPath, args: [GATE_SERVER] } } });
    await waitFor(async () => (await svc.server('gate'))?.state === 'connected', { what: 'gate connected' });
    for (const slug of ['scout', 'other'])
      expect((await send('POST', '/api/bots', { slug, name: slug })).status).toBe(201);
    for (const slug of ['scout', 'other']) {
      const saved = await send('PUT', `/api/bots/${slug}/workflows/relay`, {
        steps: [
          { id: 'first', tool: 'gate__echo', arguments: { text: 'hello {{input.who}}' } },
          { id: 'second', tool: 'gate__fetch', arguments: { url: '{{input.url}}' } },
          { id: 'third', tool: 'gate__echo', arguments: { text: '{{steps.second.text}}' } },
        ],
      });
      expect(saved.status).toBe(201);
    }
  });
  afterAll(async () => {
    await svc?.stop();
    await held?.close();
  });

  it('publishes each step as it ends, before the run answers, with its run id and no result', async () => {
    const stream = await svc.events('?bot=scout');
    try {
      let answered = false;
      const running = send<{ run: Run }>('POST', '/api/bots/scout/workflows/relay/run', {
        input: { who: 'ada', url: held.url },
      }).then((answer) => {
        answered = true;
        return answer;
      });
      const started = data(await stream.next(of('workflow_started')));
      const runId = started.runId as string;
      expect(runId).toMatch(/^[0-9a-f-]{36}$/);
      const first = data(await stream.next(of('workflow_step_finished', runId)));
      await held.arrived();
      // The second step is held: the first step's event came while the run was still going.
      expect(answered).toBe(false);
      expect(first).toMatchObject({
        type: 'workflow_step_finished',
        server: null,
        bot: 'scout',
        workflow: 'relay',
        runId,
        step: 'first',
        tool: 'gate__echo',
        index: 0,
        status: 'succeeded',
        error: null,
      });
      expect(first.durationMs).toEqual(expect.any(Number));
      expect(JSON.stringify(first)).not.toContain('hello ada');
      held.release(200, 'pong');
      const { body } = await running;
      expect(body.run).toMatchObject({ runId, status: 'succeeded' });
      await stream.next(of('workflow_finished', runId));
      const steps = stream.events.filter(of('workflow_step_finished', runId)).map(data);
      expect(steps.map((s) => [s.step, s.index, s.status])).toEqual([
        ['first', 0, 'succeeded'],
        ['second', 1, 'succeeded'],
        ['third', 2, 'succeeded'],
      ]);
      expect(stream.events.filter((e) => e.event.startsWith('workflow_')).map((e) => e.event)).toEqual([
        'workflow_started',
        'workflow_step_finished',
        'workflow_step_finished',
        'workflow_step_finished',
        'workflow_finished',
      ]);
    } finally {
      await stream.close();
    }
  });

  it('a failed step carries its bounded error; the skipped ones publish nothing; ?bot= keeps one bot', async () => {
    const scoutOnly = await svc.events('?bot=scout');
    const all = await svc.events();
    try {
      const other = send<{ run: Run }>('POST', '/api/bots/other/workflows/relay/run', {
        input: { who: 'bo', url: held.url },
      });
      await held.arrived();
      held.release(500, `upstream says no ${'x'.repeat(1_000)}`);
      const otherRun = (await other).body.run;
      expect(otherRun.status).toBe('failed');
      await all.next(of('workflow_finished', otherRun.runId));

      const running = send<{ run: Run }>('POST', '/api/bots/scout/workflows/relay/run', {
        input: { who: 'bo', url: held.url },
      });
      await held.arrived();
      held.release(500, 'not today');
      const { body } = await running;
      expect(body.run).toMatchObject({ status: 'failed', failedStep: 'second' });
      expect(body.run.steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
      const finished = data(await scoutOnly.next(of('workflow_finished', body.run.runId)));
      expect(finished).toMatchObject({ status: 'failed', failedStep: 'second' });
      const steps = scoutOnly.events.filter(of('workflow_step_finished', body.run.runId)).map(data);
      expect(steps.map((s) => [s.step, s.status])).toEqual([
        ['first', 'succeeded'],
        ['second', 'failed'],
      ]);
      expect(steps[1]?.error).toBe('step "second" (gate__fetch) failed: not today');

      const otherFailed = all.events.filter(of('workflow_step_finished', otherRun.runId)).map(data)[1];
      expect(otherFailed).toMatchObject({ bot: 'other', step: 'second', status: 'failed' });
      expect(String(otherFailed?.error).length).toBeLessThanOrEqual(200);
      expect(scoutOnly.events.some((e) => data(e).bot === 'other')).toBe(false);
    } finally {
      await scoutOnly.close();
      await all.close();
    }
  });
});
