/**
 * Rug-pull pins (SPEC X5), the pure part: what a tool's pinned hash covers (which other
 * servers' tools a description names is `find-shadowing.ts`; what a pin keeps of the texts
 * for review is `pin-texts.ts`).
 *
 * The fingerprint covers what the model reads and what it is asked to send: `description`,
 * `title`, `inputSchema` and `outputSchema`. The name is the pin's key, not part of the hash;
 * `annotations` (hints) and `_meta` are left out so that a server's bookkeeping does not
 * quarantine a tool. The hash is over the full texts, however long: a change past what a
 * pin keeps for review is still a change.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson as canonicalText } from './canonical-json.js';

/** The fields a pin's fingerprint covers, in full. */
export type PinnedFields = {
  readonly description: string | null;
  readonly title: string | null;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
};

/** The fields of `tool` that its fingerprint covers (absent ones as null). */
export function pinnedFields(tool: Pick<Tool, 'description' | 'inputSchema'> & Partial<Tool>): PinnedFields {
  return {
    description: tool.description ?? null,
    title: tool.title ?? null,
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
  };
}

/** SHA-256 (hex) of the canonical JSON (keys sorted at every depth) of the pinned fields. */
export function toolFingerprint(tool: Pick<Tool, 'description' | 'inputSchema'> & Partial<Tool>): string {
  return createHash('sha256')
    .update(canonicalJson(pinnedFields(tool)), 'utf8')
    .digest('hex');
}

/**
 * JSON with object keys sorted (by code unit) at every depth; `undefined` members are
 * dropped, as JSON.stringify does. Written without recursion: a tool nested thousands of
 * levels deep must not overflow the stack in the pin check (discovery refuses those anyway).
 */
export function canonicalJson(value: unknown): string {
  return canonicalText(value, 'code-unit') ?? 'null';
}
