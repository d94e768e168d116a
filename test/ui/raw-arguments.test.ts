import { describe, expect, it } from 'vitest';
import { canDrawFields, draftArguments, parseRawArguments, valuesFromArguments } from '../../src/ui/raw-arguments.js';
import { initialValues, toFields } from '../../src/ui/tool-form.js';

describe('raw JSON arguments of the test form', () => {
  it('draws fields only when they say everything the schema allows', () => {
    expect(canDrawFields({ type: 'object', properties: { a: { type: 'string' } } })).toBe(true);
    expect(canDrawFields({ type: 'object', properties: {} })).toBe(true);
    expect(canDrawFields({ type: 'object', properties: {}, additionalProperties: false })).toBe(true);
    for (const schema of [
      { type: 'object' },
      {},
      null,
      { type: 'object', allOf: [{ properties: { a: {} } }] },
      { type: 'object', anyOf: [] },
      { $ref: '#/$defs/x' },
      { type: 'object', properties: { a: { $ref: '#/$defs/a' } } },
      { type: 'object', properties: { a: {} }, additionalProperties: true },
    ])
      expect(canDrawFields(schema)).toBe(false);
  });

  it('parses an object, and says in one line what else it got', () => {
    expect(parseRawArguments('  ')).toEqual({ ok: true, arguments: {} });
    expect(parseRawArguments('{"a":1}')).toEqual({ ok: true, arguments: { a: 1 } });
    expect(parseRawArguments('{')).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON: /) });
    expect(parseRawArguments('[1]')).toEqual({
      ok: false,
      error: 'the arguments must be a JSON object ({…}), not an array',
    });
    expect(parseRawArguments('null')).toMatchObject({ ok: false, error: expect.stringContaining('not null') });
  });

  it('carries a form to JSON and back, a required empty string as ""', () => {
    const fields = toFields({
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['q'],
    });
    const values = { ...initialValues(fields), n: '3', tags: 'a\nb' };
    const draft = draftArguments(fields, values);
    expect(draft).toEqual({ q: '', n: 3, tags: ['a', 'b'] });
    expect(valuesFromArguments(fields, draft)).toEqual({ ok: true, values: { q: '', n: '3', tags: 'a\nb' } });
    expect(valuesFromArguments(fields, { q: 'x', z: 1 })).toEqual({
      ok: false,
      error: 'kept as JSON: "z" has no field in the form',
    });
    expect(valuesFromArguments(fields, { q: 5 })).toEqual({ ok: false, error: 'kept as JSON: "q" is not a string' });
  });
});
