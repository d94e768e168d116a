/**
 * Rug-pull pins (SPEC X5), the pure part: what a tool's pinned hash covers, and which other
 * servers' tools a description names (cross-server shadowing, reported but never blocked).
 *
 * The fingerprint covers what the model reads and what it is asked to send: `description`,
 * `title`, `inputSchema` and `outputSchema`. The name is the pin's key, not part of the hash;
 * `annotations` (hints) and `_meta` are left out so that a server's bookkeeping does not
 * quarantine a tool.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** The fields a pin covers, as stored beside the hash so a change can be shown side by side. */
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

/** JSON with object keys sorted at every depth; `undefined` members are dropped, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** One tool of another server, as a shadowing check sees it. */
export type OtherTool = { readonly server: string; readonly name: string };

const IDENT = 'A-Za-z0-9_\\-';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A bare name is specific enough to count only when it looks like an identifier, not a word. */
const identifierLike = (name: string) => /[_\-.0-9]/.test(name) || /[a-z][A-Z]/.test(name);

/**
 * Tools of other servers that `tool`'s description (or title) names, as `{server}__{tool}`,
 * sorted and unique. A tool counts when its public name appears, or its bare name appears as
 * a whole token and either looks like an identifier (`send_email`, `sendEmail`) or is quoted
 * (`` `send` ``, `"send"`). Tools of `server` itself, and other tools sharing this tool's own
 * name, never count.
 */
export function findShadowing(
  server: string,
  tool: Pick<Tool, 'name' | 'description' | 'title'>,
  otherTools: readonly OtherTool[],
): string[] {
  const text = [tool.description, tool.title].filter(Boolean).join('\n');
  if (!text) return [];
  const found = new Set<string>();
  for (const other of otherTools) {
    if (other.server === server) continue;
    const publicName = `${other.server}__${other.name}`;
    const token = (name: string) => new RegExp(`(^|[^${IDENT}])${escapeRegExp(name)}($|[^${IDENT}])`, 'iu');
    const quoted = new RegExp(`[\`'"]${escapeRegExp(other.name)}[\`'"]`, 'u');
    if (
      token(publicName).test(text) ||
      (other.name !== tool.name && ((identifierLike(other.name) && token(other.name).test(text)) || quoted.test(text)))
    )
      found.add(publicName);
  }
  return [...found].sort();
}
