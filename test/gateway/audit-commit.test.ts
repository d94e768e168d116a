/**
 * Every request an agent is answered commits its audit row before the answer (issue 17):
 * by the time the agent has the answer, the row went through `commit`, the durable path,
 * not the batched `record`. The 2026-07-28 era serves through the same request modules.
 */
import { describe, expect, it } from 'vitest';
import { alphaAndBeta } from '../support/fixture-server.js';
import { useGateway } from '../support/gateway-harness.js';
import { refusal } from '../support/refusal.js';
import { waitFor } from '../support/wait-for.js';

describe('the audit row of an answered request', () => {
  const ready = useGateway({ servers: alphaAndBeta() });
  const lastCommitted = () => ready.gw.committed.at(-1);

  it('is committed before each kind of answer reaches the agent', async () => {
    await ready.agent.callTool({ name: 'alpha__a_echo', arguments: { text: 'x' } });
    expect(lastCommitted()).toMatchObject({ eventType: 'tool_call', toolName: 'a_echo', input: { text: 'x' } });
    await ready.agent.readResource({ uri: 'fixture://b_readme' });
    expect(lastCommitted()).toMatchObject({ eventType: 'resource_read', serverName: 'beta' });
    await ready.agent.getPrompt({ name: 'beta__greet', arguments: { name: 'Ada' } });
    expect(lastCommitted()).toMatchObject({ eventType: 'prompt_get', serverName: 'beta' });
    await ready.agent.complete({
      ref: { type: 'ref/prompt', name: 'beta__greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(lastCommitted()).toMatchObject({ eventType: 'completion', serverName: 'beta' });
    await ready.agent.listTools();
    expect(lastCommitted()).toMatchObject({ eventType: 'tools_list' });
  });

  it('is committed for a refused call too', async () => {
    await refusal(ready.agent.callTool({ name: 'nobody__echo', arguments: {} }));
    expect(lastCommitted()).toMatchObject({ eventType: 'tool_call', success: false, toolName: 'nobody__echo' });
  });
});

describe('the audit rows of what else an agent sends (X7: every MCP event)', () => {
  const ready = useGateway({ servers: alphaAndBeta() });
  const rowsOf = (eventType: string) => ready.gw.audit.filter((row) => row.eventType === eventType);

  it('records a ping, a logging/setLevel (committed, it is answered) and a roots/list_changed', async () => {
    await ready.agent.ping();
    expect(rowsOf('ping')).toEqual([expect.objectContaining({ direction: 'server', success: true, serverName: null })]);
    await ready.agent.setLoggingLevel('debug');
    expect(ready.gw.committed.at(-1)).toMatchObject({ eventType: 'set_level', input: { level: 'debug' } });
    // A client that declares roots tells of their change.
    const { client } = await ready.gw.agent({ kind: 'all' }, { capabilities: { roots: { listChanged: true } } });
    await client.sendRootsListChanged();
    await waitFor(() => rowsOf('roots_list_changed').length === 1, { what: 'the roots_list_changed row' });
  });
});
