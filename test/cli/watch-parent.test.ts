import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launchedByNpm, watchParent } from '../../src/cli/watch-parent.js';

const NPM = { npm_lifecycle_event: 'start' };

describe('watchParent', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('knows npm launched it by npm_lifecycle_event', () => {
    expect(launchedByNpm(NPM)).toBe(true);
    expect(launchedByNpm({ npm_lifecycle_event: '' })).toBe(false);
    expect(launchedByNpm({})).toBe(false);
  });

  it('calls onGone once, when the parent changes under npm', () => {
    let parent = 100;
    let gone = 0;
    watchParent({ env: NPM, intervalMs: 500, ppid: () => parent, onGone: () => gone++ });
    vi.advanceTimersByTime(2_000);
    expect(gone).toBe(0);
    parent = 1;
    vi.advanceTimersByTime(500);
    expect(gone).toBe(1);
    parent = 2;
    vi.advanceTimersByTime(2_000);
    expect(gone).toBe(1);
  });

  it('stops watching when told to', () => {
    let parent = 100;
    let gone = 0;
    const stop = watchParent({ env: NPM, intervalMs: 500, ppid: () => parent, onGone: () => gone++ });
    stop();
    parent = 1;
    vi.advanceTimersByTime(2_000);
    expect(gone).toBe(0);
  });

  it('watches nothing outside npm: a shell or a supervisor signals the service itself', () => {
    let reads = 0;
    watchParent({ env: {}, intervalMs: 500, ppid: () => reads++, onGone: () => undefined });
    vi.advanceTimersByTime(2_000);
    expect(reads).toBe(0);
  });
});
