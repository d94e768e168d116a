/**
 * Rug-pull pins (SPEC X5), what a pin keeps for a person to review: each text its
 * fingerprint covers cut to a bound, with its full length and its own hash, so a change can
 * be shown side by side (and named, even beyond the cut) while a row stays small whatever an
 * upstream sends. The fingerprint itself still covers the full texts (`tool-fingerprint.ts`).
 * @module
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from './tool-fingerprint.js';

/** The fields a fingerprint covers, in the order they are shown. */
export const PIN_FIELDS = ['description', 'title', 'inputSchema', 'outputSchema'] as const;

/** One of {@link PIN_FIELDS}. */
export type PinField = (typeof PIN_FIELDS)[number];

/**
 * A text kept for review: `text` is its first characters (a schema as compact JSON),
 * `length` the full length, `sha256` the hash of the whole field's canonical JSON (null when
 * unknown: a pin whose full text was cut by migration 0005 before hashes were kept).
 */
export type PinText = { readonly text: string; readonly length: number; readonly sha256: string | null };

/** The kept texts of a pin: null for a field the tool does not have. */
export type PinTexts = { readonly [F in PinField]: PinText | null };

/** The longest text a pin keeps of one field unless the config says otherwise (`pins.textMaxChars`). */
export const PIN_TEXT_MAX_CHARS = 2_000;

/** `text` cut to at most `max` UTF-16 units, never in the middle of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const high = text.charCodeAt(max - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** One field as kept: cut to `max`, with its length and hash. */
function keep(value: unknown, max: number): PinText | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  return { text: cutText(text, max), length: text.length, sha256: sha256(canonicalJson(value)) };
}

/** The texts of `tool` a pin keeps, each cut to `max` characters. */
export function pinTexts(
  tool: Pick<Tool, 'description' | 'inputSchema'> & Partial<Tool>,
  max: number = PIN_TEXT_MAX_CHARS,
): PinTexts {
  return {
    description: keep(tool.description, max),
    title: keep(tool.title, max),
    inputSchema: keep(tool.inputSchema, max),
    outputSchema: keep(tool.outputSchema, max),
  };
}

/** Whether two kept texts are known to differ (by hash when both have one, else by what was kept). */
function differs(a: PinText | null, b: PinText | null): boolean {
  if (a === null || b === null) return a !== b;
  if (a.sha256 !== null && b.sha256 !== null) return a.sha256 !== b.sha256;
  return a.length !== b.length || a.text !== b.text;
}

/** The fields that differ between two pins' texts, in {@link PIN_FIELDS} order. */
export function changedFields(before: PinTexts, after: PinTexts): PinField[] {
  return PIN_FIELDS.filter((field) => differs(before[field], after[field]));
}
