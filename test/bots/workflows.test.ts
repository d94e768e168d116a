import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../src/bots/create-bot.js';
import { deleteWorkflow } from '../../src/bots/delete-workflow.js';
import { listWorkflows } from '../../src/bots/list-workflows.js';
import { runWorkflow } from '../../src/bots/run-workflow.js';
import { saveWorkflow } from '../../src/bots/save-workflow.js';
import { BotInputError, BotItemNotFoundError } from '../../src/errors.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { connectDemoServer, createSdkToolCaller } from '../support/bot-tool-caller.js';
import { DIALECTS } from '../support/test-db.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;

describe.each(DIALECTS)('workflows (%s)', (dialect) => {
  let deps: Deps;
  let demo: Client;
  let port: ReturnType<typeof createSdkToolCaller>;
  beforeAll(async () => {
    demo = await connectDemoServer();
    port = createSdkToolCaller({ servers: { demo }, denied: ['demo__secret'] });
    deps = await createTestBotDeps({ dialect, tools: port });
    await createBot(deps, { slug: 'flow', name: 'Flow' });
  });
  afterAll(async () => {
    await deps.close();
    await demo.close();
  });
  const callsSince = (n: number) => port.calls.slice(n).map((c) => [c.slug, c.name, c.args]);

  it('runs three steps, passing the first result into the second, each through the port under the bot', async () => {
    await saveWorkflow(deps, 'flow', {
      name: 'shout',
      steps: [
        { id: 'first', tool: 'demo__echo', arguments: { text: '{{input.word}}' } },
        {
          id: 'second',
          tool: 'demo__upper',
          arguments: { text: '{{steps.first.result.content[0].text}} and {{steps.first.text}}' },
        },
        { id: 'third', tool: 'demo__echo', arguments: { text: '{{steps.second.text}}!' } },
      ],
    });
    const n = port.calls.length;
    const run = await runWorkflow(deps, 'flow', { name: 'shout', input: { word: 'hello' } });
    expect(run).toMatchObject({ status: 'succeeded', failedStep: null, error: null });
    expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(run.output?.content).toEqual([{ type: 'text', text: 'HELLO AND HELLO!' }]);
    expect(callsSince(n)).toEqual([
      ['flow', 'demo__echo', { text: 'hello' }],
      ['flow', 'demo__upper', { text: 'hello and hello' }],
      ['flow', 'demo__echo', { text: 'HELLO AND HELLO!' }],
    ]);
  });

  it('stops at a failing second step and names it; the third never runs', async () => {
    await saveWorkflow(deps, 'flow', {
      name: 'broken',
      steps: [
        { id: 'one', tool: 'demo__echo', arguments: { text: 'x' } },
        { id: 'two', tool: 'demo__fail' },
        { id: 'three', tool: 'demo__echo', arguments: { text: '{{steps.two.text}}' } },
      ],
    });
    const n = port.calls.length;
    const run = await runWorkflow(deps, 'flow', { name: 'broken' });
    expect(run).toMatchObject({ status: 'failed', failedStep: 'two', output: null });
    expect(run.error).toMatch(/^step "two" \(demo__fail\) failed: .*disk on fire/);
    expect(run.steps.map((s) => [s.id, s.status])).toEqual([
      ['one', 'succeeded'],
      ['two', 'failed'],
      ['three', 'skipped'],
    ]);
    expect(callsSince(n).map((c) => c[1])).toEqual(['demo__echo', 'demo__fail']);
  });

  it('fails a step that outlives its timeout, naming it', async () => {
    await saveWorkflow(deps, 'flow', { name: 'stuck', steps: [{ id: 'wait', tool: 'demo__slow', timeoutMs: 50 }] });
    const run = await runWorkflow(deps, 'flow', { name: 'stuck' });
    expect(run).toMatchObject({
      status: 'failed',
      failedStep: 'wait',
      error: 'step "wait" (demo__slow) timed out after 50 ms',
    });
  });

  it('fails a step whose tool the port refuses, and one whose reference finds nothing at run time', async () => {
    await saveWorkflow(deps, 'flow', {
      name: 'refused',
      steps: [{ id: 'peek', tool: 'demo__secret' }],
    });
    expect((await runWorkflow(deps, 'flow', { name: 'refused' })).error).toBe(
      'step "peek" (demo__secret) failed: tool "demo__secret" is not in the view of bot "flow"',
    );
    await saveWorkflow(deps, 'flow', {
      name: 'missing',
      steps: [{ id: 'a', tool: 'demo__echo', arguments: { text: '{{input.nothing}}' } }],
    });
    const n = port.calls.length;
    expect((await runWorkflow(deps, 'flow', { name: 'missing', input: {} })).error).toBe(
      'step "a" (demo__echo) failed: {{input.nothing}}: input.nothing is not there',
    );
    expect(port.calls.length).toBe(n);
  });

  it.each([
    [
      [{ id: 'a', tool: 'demo__echo', arguments: { text: '{{steps.ghost.text}}' } }],
      'steps.0.arguments.text: {{steps.ghost.text}} refers to step "ghost", which does not exist',
    ],
    [
      [
        { id: 'a', tool: 'demo__echo', arguments: { text: '{{steps.b.text}}' } },
        { id: 'b', tool: 'demo__echo', arguments: { text: 'x' } },
      ],
      'steps.0.arguments.text: {{steps.b.text}} refers to step "b", which has not run yet at this point',
    ],
    [[{ id: 'a', tool: 'demo__echo', arguments: { text: '{{steps.a.text}}' } }], 'which has not run yet at this point'],
    [[{ id: 'a', tool: 'demo__echo', arguments: { text: '{{env.HOME}}' } }], 'starts with input or steps, not "env"'],
    [
      [
        { id: 'a', tool: 'demo__echo' },
        { id: 'b', tool: 'demo__echo', arguments: { t: ['{{steps.a.output}}'] } },
      ],
      'steps.1.arguments.t.0: {{steps.a.output}}: a step has result and text, not "output"',
    ],
    [
      [
        { id: 'a', tool: 'demo__echo' },
        { id: 'a', tool: 'demo__echo' },
      ],
      'steps.1.id: step id "a" is used twice',
    ],
    [[{ id: 'a', tool: 'demo__echo', arguments: { text: '{{input.x' } }], 'is not closed by "}}"'],
    [[], 'steps:'],
  ])('refuses a workflow with a bad step %#, storing nothing', async (steps, message) => {
    const error = await saveWorkflow(deps, 'flow', { name: 'bad', steps }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotInputError);
    expect((error as Error).message).toContain(message);
    expect((await listWorkflows(deps, 'flow')).map((w) => w.name)).not.toContain('bad');
  });

  it('refuses to run or delete a workflow that does not exist', async () => {
    await expect(runWorkflow(deps, 'flow', { name: 'nope' })).rejects.toBeInstanceOf(BotItemNotFoundError);
    await expect(deleteWorkflow(deps, 'flow', 'nope')).rejects.toThrow('bot "flow" has no workflow "nope"');
  });
});
