/**
 * The test form generated from a tool's input schema, and the schema in words (SPEC A3).
 * Schemas come from upstreams: odd ones must not break the form.
 */
import { describe, expect, it } from 'vitest';
import { describeSchema } from '../../src/ui/describe-schema.js';
import { choiceLabel, initialValues, toArguments, toFields } from '../../src/ui/tool-form.js';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Where' },
    count: { type: 'integer', default: 3 },
    ratio: { type: 'number' },
    recursive: { type: 'boolean' },
    force: { type: 'boolean' },
    mode: { enum: ['fast', 'safe', 2] },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
    maybe: { type: ['string', 'null'], format: 'uri' },
  },
  required: ['path', 'force'],
};

describe('the generated tool form', () => {
  const fields = toFields(schema);

  it('has one field per property, of a kind that fits its type', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['path', 'text', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['recursive', 'boolean', false],
      ['force', 'boolean', true],
      ['mode', 'choice', false],
      ['tags', 'lines', false],
      ['options', 'json', false],
      ['maybe', 'text', false],
    ]);
    expect(fields.find((f) => f.name === 'mode')?.choices).toEqual(['"fast"', '"safe"', '2']);
    expect(initialValues(fields)).toMatchObject({ count: '3', force: false, recursive: '' });
  });

  it('shows choices as a person reads them: strings without their JSON quotes', () => {
    expect(['"fast"', '"New York"', '2', 'null', 'true', '""'].map(choiceLabel)).toEqual([
      'fast',
      'New York',
      '2',
      'null',
      'true',
      '""',
    ]);
  });

  it('turns a filled form into arguments, leaving out empty optional fields', () => {
    const values = {
      ...initialValues(fields),
      path: '/tmp',
      ratio: '0.5',
      recursive: 'true',
      mode: '2',
      tags: 'a\n\n b \n',
      options: '{"depth": 2}',
    };
    expect(toArguments(fields, values)).toEqual({
      ok: true,
      arguments: {
        path: '/tmp',
        count: 3,
        ratio: 0.5,
        recursive: true,
        force: false,
        mode: 2,
        tags: ['a', ' b '],
        options: { depth: 2 },
      },
    });
  });

  it('says what is wrong with each field instead of calling', () => {
    const values = { ...initialValues(fields), count: '1.5', ratio: 'abc', options: '{', path: ' ' };
    expect(toArguments(fields, values)).toEqual({
      ok: false,
      errors: {
        path: 'required (to send an empty string, use Edit as JSON)',
        count: 'expected a whole number',
        ratio: 'expected a number',
        options: 'expected JSON',
      },
    });
  });

  it('copes with schemas that are not objects, or have no properties', () => {
    for (const odd of [null, 'x', [], {}, { type: 'object' }, { properties: [] }, { properties: { a: 5 } }]) {
      const oddFields = toFields(odd);
      expect(toArguments(oddFields, initialValues(oddFields)).ok).toBe(true);
    }
    expect(toFields({ properties: { a: 5 } })).toMatchObject([{ name: 'a', kind: 'json', type: 'any' }]);
  });
});

describe('a schema in words', () => {
  it('lists properties with types, required, defaults and nesting', () => {
    expect(describeSchema(schema).map((r) => [r.path, r.depth, r.type, r.required, r.defaultValue])).toEqual([
      ['path', 0, 'string', true, null],
      ['count', 0, 'integer', false, '3'],
      ['ratio', 0, 'number', false, null],
      ['recursive', 0, 'boolean', false, null],
      ['force', 0, 'boolean', true, null],
      ['mode', 0, 'one of fast, safe, 2', false, null],
      ['tags', 0, 'array of string', false, null],
      ['options', 0, 'object', false, null],
      ['options.depth', 1, 'integer', true, null],
      ['maybe', 0, 'string (uri) or null', false, null],
    ]);
  });

  it('says enum values, constants and defaults without JSON quotes around strings', () => {
    const units = {
      type: 'object',
      properties: { u: { enum: ['celsius', 'fahrenheit'], default: 'celsius' }, k: { const: 'x' } },
    };
    expect(describeSchema(units).map((r) => [r.type, r.defaultValue])).toEqual([
      ['one of celsius, fahrenheit', 'celsius'],
      ['exactly x', null],
    ]);
  });

  it('stops at a depth on a deeply nested schema', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50; i++) deep = { type: 'object', properties: { n: deep } };
    expect(describeSchema(deep).length).toBe(5);
  });
});
