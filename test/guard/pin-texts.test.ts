import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedFields, cutText, PIN_TEXT_MAX_CHARS, pinTexts } from '../../src/guard/pin-texts.js';
import { toolFingerprint } from '../../src/guard/tool-fingerprint.js';

const schema = { type: 'object' as const, properties: { a: { type: 'string' } } };
const huge = (tail: string) => `${'d'.repeat(400 * 1024)}${tail}`;

describe('pinTexts', () => {
  it('keeps a 400 KB description as its first 2,000 characters, its full length and the hash of the whole', () => {
    const texts = pinTexts({ name: 't', description: huge('v1'), inputSchema: schema });
    expect(texts.description?.text).toHaveLength(PIN_TEXT_MAX_CHARS);
    expect(texts.description?.length).toBe(400 * 1024 + 2);
    expect(texts.description?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(texts).length).toBeLessThan(PIN_TEXT_MAX_CHARS + 1_000);
    expect(texts.inputSchema).toMatchObject({ text: JSON.stringify(schema), length: JSON.stringify(schema).length });
    expect(texts.title).toBeNull();
    expect(texts.outputSchema).toBeNull();
  });

  it('names a change past the cut (by hash), and the fingerprint sees it too', () => {
    const one = { name: 't', description: huge('v1'), inputSchema: schema };
    const two = { ...one, description: huge('v2') };
    expect(pinTexts(one).description?.text).toBe(pinTexts(two).description?.text);
    expect(changedFields(pinTexts(one), pinTexts(two))).toEqual(['description']);
    expect(toolFingerprint(one)).not.toBe(toolFingerprint(two));
    expect(changedFields(pinTexts(one), pinTexts(one))).toEqual([]);
  });

  it('hashes a schema by its canonical JSON: key order is no change, a new property is', () => {
    const reordered = { properties: { a: { type: 'string' } }, type: 'object' as const };
    expect(changedFields(pinTexts({ inputSchema: schema }), pinTexts({ inputSchema: reordered }))).toEqual([]);
    const wider = { ...schema, properties: { ...schema.properties, b: { type: 'number' } } };
    expect(changedFields(pinTexts({ inputSchema: schema }), pinTexts({ inputSchema: wider }))).toEqual(['inputSchema']);
    expect(changedFields(pinTexts({ inputSchema: schema }), pinTexts({ inputSchema: schema, title: 'T' }))).toEqual([
      'title',
    ]);
  });

  it('compares texts cut by the migration (no hash) by what was kept', () => {
    const legacy = { text: 'Adds', length: 4, sha256: null };
    const base = { description: legacy, title: null, inputSchema: null, outputSchema: null };
    expect(changedFields(base, { ...base, description: { ...legacy, length: 5 } })).toEqual(['description']);
    expect(changedFields(base, { ...base })).toEqual([]);
    expect(changedFields(base, pinTexts({ description: 'Adds', inputSchema: schema }))).toEqual(['inputSchema']);
  });

  it('never cuts a surrogate pair in half', () => {
    expect(cutText('ab😀cd', 3)).toBe('ab');
    expect(cutText('ab😀cd', 4)).toBe('ab😀');
  });

  it('keeps, for any text, a prefix within the bound and the true length (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 2, max: 200 }), (text, max) => {
        const kept = pinTexts({ description: text, inputSchema: schema }, max).description;
        expect(kept?.length).toBe(text.length);
        expect(kept?.text.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(kept?.text ?? '\u0000')).toBe(true);
        // Whatever was cut, a change at the very end is still named.
        const changed = pinTexts({ description: `${text}!`, inputSchema: schema }, max);
        expect(changedFields(pinTexts({ description: text, inputSchema: schema }, max), changed)).toEqual([
          'description',
        ]);
      }),
    );
  });
});
