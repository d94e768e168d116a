/**
 * A quarantined tool's kept texts as lines for the side-by-side review (SPEC X5): the title,
 * the description, then the schemas indented, each saying when it was cut and how long it
 * really is. Pure, so it is tested without a browser.
 * @module
 */
import type { PinnedFields } from './api-types.js';

type PinText = NonNullable<PinnedFields['description']>;

/** A note for a cut text: how much of it is shown. */
function cutNote(text: PinText): string[] {
  if (!text.truncated) return [];
  return [
    `… cut: the first ${text.text.length.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters`,
  ];
}

/**
 * Compact JSON as indented lines, also when it was cut in the middle (then it is not valid
 * JSON and cannot be parsed): a bracket or comma outside a string breaks the line.
 */
export function indentJson(text: string): string[] {
  try {
    return JSON.stringify(JSON.parse(text), null, 2).split('\n');
  } catch {
    // Cut: indent by hand below.
  }
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const pad = () => `\n${'  '.repeat(depth)}`;
  for (const ch of text) {
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '{' || ch === '[') {
      depth += 1;
      out += ch + pad();
    } else if (ch === '}' || ch === ']') {
      depth = Math.max(0, depth - 1);
      out += pad() + ch;
    } else if (ch === ',') out += `,${pad()}`;
    else if (ch === ':') out += ': ';
    else out += ch;
  }
  return out.split('\n');
}

/** The lines of one side of the review. */
export function pinLines(fields: PinnedFields | null): string[] {
  if (!fields) return ['(not recorded: pinned before texts were kept)'];
  const { title, description, inputSchema, outputSchema } = fields;
  return [
    ...(title ? [`title: ${title.text}`, ...cutNote(title)] : []),
    ...(description ? [...description.text.split('\n'), ...cutNote(description)] : ['(no description)']),
    '',
    'input schema:',
    ...(inputSchema ? [...indentJson(inputSchema.text), ...cutNote(inputSchema)] : ['(none)']),
    ...(outputSchema ? ['', 'output schema:', ...indentJson(outputSchema.text), ...cutNote(outputSchema)] : []),
  ];
}
