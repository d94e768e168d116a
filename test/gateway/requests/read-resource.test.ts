/**
 * `resources/read` in-process (G2, X4, X7): listed URIs, URIs two servers share (the later
 * one rewritten), template matches, sanitized text, refusals that do not echo a huge URI.
 */
import { describe, expect, it } from 'vitest';
import { alphaAndBeta } from '../../support/fixture-server.js';
import { useGateway } from '../../support/gateway-harness.js';
import { refusal } from '../../support/refusal.js';

describe('resources/read', () => {
  const ready = useGateway({ servers: alphaAndBeta() });

  it('reads a listed URI from its owner and audits it', async () => {
    const read = await ready.agent.readResource({ uri: 'fixture://b_readme' });
    expect(read.contents).toEqual([{ uri: 'fixture://b_readme', text: 'readme of b_' }]);
    expect(ready.gw.audit.at(-1)).toMatchObject({
      eventType: 'resource_read',
      serverName: 'beta',
      toolName: 'fixture://b_readme',
      success: true,
    });
  });

  it('reads a URI two servers list from each, under the name the agent was shown', async () => {
    expect((await ready.agent.readResource({ uri: 'fixture://shared' })).contents).toEqual([
      { uri: 'fixture://shared', text: 'shared from a_' },
    ]);
    expect((await ready.agent.readResource({ uri: 'boternity:beta:fixture://shared' })).contents).toEqual([
      { uri: 'boternity:beta:fixture://shared', text: 'shared from b_' },
    ]);
  });

  it('routes a URI no server lists to the template that matches it', async () => {
    expect((await ready.agent.readResource({ uri: 'fixture://b_items/7' })).contents).toEqual([
      { uri: 'fixture://b_items/7', text: 'item 7' },
    ]);
  });

  it('sanitizes resource text (X4) and marks the audit row; a clean read is not marked', async () => {
    expect((await ready.agent.readResource({ uri: 'fixture://a_poisoned' })).contents).toEqual([
      { uri: 'fixture://a_poisoned', text: 'note' },
    ]);
    expect(ready.gw.audit.at(-1)).toMatchObject({ eventType: 'resource_read', sanitized: true });
    await ready.agent.readResource({ uri: 'fixture://b_readme' });
    expect(ready.gw.audit.at(-1)).toMatchObject({ eventType: 'resource_read', sanitized: false });
  });

  it('refuses a URI outside the view with -32602, without echoing a huge one', async () => {
    const unknown = await refusal(ready.agent.readResource({ uri: 'nowhere://x' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('resource "nowhere://x" is not available in this view');
    const huge = await refusal(ready.agent.readResource({ uri: `nowhere://${'y'.repeat(100_000)}` }));
    expect(huge.message.length).toBeLessThan(400);
    expect(huge.message).toContain('(100010 characters)');
    expect(ready.gw.audit.at(-1)).toMatchObject({ eventType: 'resource_read', serverName: null, success: false });
  });
});
