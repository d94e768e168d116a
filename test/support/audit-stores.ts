/**
 * A SQLite file in a temp directory per test for the audit writer's tests, its journal's path
 * beside it (`a.db-audit`), closed with anything else the test hands `keep` after the test.
 * @module
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { AuditEntry } from '../../src/storage/audit-writer.js';
import { createDb } from '../../src/storage/create-db.js';
import { useTempDirs } from './temp-dir.js';

/** Call in a `describe`: `open()` makes a store; `keep()` closes more after the test; `tempDir()` a bare directory. */
export function useAuditStores() {
  const tempDir = useTempDirs();
  const opened: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });
  return {
    tempDir,
    keep: (...items: { close(): unknown }[]) => opened.push(...items),
    async open() {
      const dir = await tempDir();
      const store = await createDb({ url: `file:${join(dir, 'a.db')}` });
      opened.push(store);
      return { store, dir, journal: join(dir, 'a.db-audit') };
    },
  };
}

/** An answered `echo` tool call of `text`, as the gateway reports it to the audit. */
export const toolCallEntry = (text: string): AuditEntry => ({
  direction: 'server',
  eventType: 'tool_call',
  toolName: 'echo',
  input: { text },
  output: { content: [{ type: 'text', text }] },
  success: true,
});
