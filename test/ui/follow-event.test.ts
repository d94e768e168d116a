/**
 * The web UI's router follows the URL's fragment from its first render on: a change made
 * before it subscribed (its effect runs after the render) is not lost — the page shown is the
 * one the URL names (browser tests saw the servers list under `#/servers/catalog`).
 */
import { describe, expect, it } from 'vitest';
import { followEvent } from '../../src/ui/follow-event.js';

describe('followEvent', () => {
  it('takes the value as it is when it subscribes, then at every event, until stopped', () => {
    const target = new EventTarget();
    let hash = '#/servers';
    const seen: string[] = [];
    // The fragment changed after the first render, before the subscription.
    hash = '#/servers/catalog';
    const stop = followEvent(
      target,
      'hashchange',
      () => hash,
      (value) => seen.push(value),
    );
    expect(seen).toEqual(['#/servers/catalog']);

    hash = '#/bots/helper';
    target.dispatchEvent(new Event('hashchange'));
    expect(seen).toEqual(['#/servers/catalog', '#/bots/helper']);

    stop();
    hash = '#/audit';
    target.dispatchEvent(new Event('hashchange'));
    expect(seen).toHaveLength(2);
  });
});
