import { describe, expect, it } from 'vitest';
import { linkSignals } from '../../src/upstream/link-signals.js';

describe('linkSignals', () => {
  it('aborts with the reason of the first source that aborts', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, undefined, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort(new Error('b went'));
    a.abort(new Error('a went'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('b went');
  });

  it('starts aborted when a source already is', () => {
    const linked = linkSignals([AbortSignal.abort('gone')]);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('gone');
    linked.unlink();
  });

  it('no longer follows its sources once unlinked', () => {
    const source = new AbortController();
    const linked = linkSignals([source.signal]);
    linked.unlink();
    linked.unlink();
    source.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
