import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogDiff } from '../../machines/index.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import type { Catalog, LiveUpstream } from '../../src/upstream/types.js';
import { DYNAMIC_SERVER, testLogger } from '../support/fixtures.js';
import { stdioConfig } from '../support/server-config.js';

const opened: LiveUpstream[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((u) => u.close()));
});

async function connectDynamic() {
  const config = stdioConfig({ command: process.execPath, args: [DYNAMIC_SERVER] });
  const upstream = await connectUpstream({ serverId: 'dynamic', config, log: testLogger() });
  opened.push(upstream);
  return upstream;
}

function nextChange(upstream: LiveUpstream) {
  return new Promise<{ catalog: Catalog; changes: readonly CatalogDiff[] }>((resolve) => {
    const stop = upstream.watchCatalog((catalog, changes) => {
      stop();
      resolve({ catalog, changes });
    });
  });
}

describe('watchCatalog', () => {
  it('re-lists on tools/list_changed and reports the added tool', async () => {
    const upstream = await connectDynamic();
    expect(upstream.catalog().tools.map((t) => t.name)).toEqual(['add_tool']);
    const changed = nextChange(upstream);
    await upstream.callTool({ name: 'add_tool', arguments: { name: 'fresh' } });
    const { catalog, changes } = await changed;
    expect(changes).toEqual([{ kind: 'tools', added: ['fresh'], removed: [], changed: [] }]);
    expect(catalog.tools.map((t) => t.name)).toEqual(['add_tool', 'fresh']);
    expect(upstream.catalog()).toBe(catalog);
    expect(upstream.counts.toolCount).toBe(2);
  });

  it('tries a failed re-list again: the catalog does not stay stale until the next notification', async () => {
    const upstream = await connectDynamic();
    const changed = nextChange(upstream);
    // Its next two tools/list fail: the list_changed's re-list, then the first retry.
    await upstream.callTool({ name: 'add_tool', arguments: { name: 'late', failLists: 2 } });
    const { catalog, changes } = await changed;
    expect(changes).toEqual([{ kind: 'tools', added: ['late'], removed: [], changed: [] }]);
    expect(catalog.tools.map((t) => t.name)).toEqual(['add_tool', 'late']);
  });

  it('serializes overlapping re-lists and ends with every tool', async () => {
    const upstream = await connectDynamic();
    const seen: string[][] = [];
    upstream.watchCatalog((_catalog, changes) => seen.push(changes.flatMap((c) => c.added)));
    await Promise.all(
      ['t1', 't2', 't3', 't4'].map((name) => upstream.callTool({ name: 'add_tool', arguments: { name } })),
    );
    const deadline = Date.now() + 5_000;
    while (upstream.counts.toolCount < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(
      upstream
        .catalog()
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(['add_tool', 't1', 't2', 't3', 't4']);
    // Each tool is reported added exactly once, whatever the interleaving.
    expect(seen.flat().sort()).toEqual(['t1', 't2', 't3', 't4']);
  });

  it('stops calling a listener once unsubscribed', async () => {
    const upstream = await connectDynamic();
    let calls = 0;
    const stop = upstream.watchCatalog(() => calls++);
    stop();
    const other = nextChange(upstream);
    await upstream.callTool({ name: 'add_tool', arguments: { name: 'x' } });
    await other;
    expect(calls).toBe(0);
  });
});
