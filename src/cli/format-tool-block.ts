/**
 * A tool call of `bnity bot chat` as a block (seed 003, "inline collapsible tool call blocks
 * in chat"): its name, its arguments, then its result, JSON pretty-printed (and coloured when
 * asked), a long part folded to its first lines with its size and the flag that shows it
 * all; a failed call says `error` (in red when coloured), so it shows without colour too.
 *
 * ```
 * ┌ fs__list_directory
 * │ arguments
 * │   {
 * │     "path": "/tmp"
 * │   }
 * │ result · 17 bytes
 * │   [FILE] notes.txt
 * └ answered
 * ```
 * @module
 */
import { ANSI, highlightJson } from './highlight-json.js';

/** How blocks are written: coloured or not, folded or whole. */
export type BlockOptions = { color: boolean; full: boolean };

/** A folded part shows this many lines at most, each cut to `MAX_WIDTH` characters. */
export const FOLD_LINES = 12;
const MAX_WIDTH = 200;

/** What a part shows: JSON pretty-printed (highlighted), or text as it is. */
type Shown = { json: boolean; text: string };

const isStructured = (v: unknown): boolean => typeof v === 'object' && v !== null;

/** The arguments as shown: JSON unless the provider sent a string that is not JSON. */
export const shownArguments = (args: unknown): Shown =>
  typeof args === 'string' ? { json: false, text: args } : { json: true, text: JSON.stringify(args, null, 2) ?? '' };

/**
 * The result as shown: its text (what the provider was given: a result with only structured
 * content has it as JSON there), pretty-printed when it is a JSON object or array, as tools
 * often answer. Structured content beside text is not shown again: servers mostly wrap the
 * same text in it.
 */
export function shownResult(text: string): Shown {
  if (/^\s*[[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isStructured(parsed)) return shownArguments(parsed);
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return { json: false, text };
}

const paint = (on: boolean, code: string, text: string) => (on ? `${code}${text}${ANSI.reset}` : text);

/** The lines of a part under its heading, folded unless `full`. */
function partLines(heading: string, shown: Shown, { color, full }: BlockOptions, failed = false): string[] {
  const gutter = paint(color, ANSI.dim, '│');
  const all = shown.text.split('\n');
  const kept = full ? all : all.slice(0, FOLD_LINES);
  const cut = full ? false : kept.some((line) => line.length > MAX_WIDTH);
  const lines = kept.map((line) => (full || line.length <= MAX_WIDTH ? line : `${line.slice(0, MAX_WIDTH)}…`));
  const folded = kept.length < all.length || cut;
  const bytes = Buffer.byteLength(shown.text);
  const label = `${heading}${failed ? ' · error' : ''} · ${bytes} bytes`;
  const out = [`${gutter} ${paint(color, failed ? ANSI.red : ANSI.bold, label)}`];
  for (const line of lines) {
    const body = color && shown.json ? highlightJson(line) : failed ? paint(color, ANSI.red, line) : line;
    out.push(`${gutter}   ${body}`);
  }
  if (folded) {
    const what = kept.length < all.length ? `${kept.length} of ${all.length} lines shown` : 'long lines cut';
    out.push(`${gutter}   ${paint(color, ANSI.dim, `… folded: ${what}, ${bytes} bytes in all; --full shows all`)}`);
  }
  return out;
}

/** The head of a call's block and its arguments, written when the bot asks for the tool. */
export function formatToolCall(name: string, args: unknown, options: BlockOptions): string {
  const head = `${paint(options.color, ANSI.dim, '┌')} ${paint(options.color, ANSI.bold, name)}`;
  return `${[head, ...partLines('arguments', shownArguments(args), options)].join('\n')}\n`;
}

/** The rest of the block, written when the tool answered: the result and how it ended. */
export function formatToolResult(outcome: { isError: boolean; text: string }, options: BlockOptions): string {
  const lines = partLines('result', shownResult(outcome.text), options, outcome.isError);
  const end = outcome.isError ? paint(options.color, ANSI.red, 'error') : 'answered';
  return `${[...lines, `${paint(options.color, ANSI.dim, '└')} ${end}`].join('\n')}\n`;
}
