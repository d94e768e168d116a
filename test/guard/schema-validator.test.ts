/**
 * The shared JSON Schema validator (X8): one compile per distinct schema, a cache that stays
 * within {@link MAX_COMPILED_SCHEMAS} whatever schemas come, and a schema that does not
 * compile accepted rather than thrown.
 */
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { describe, expect, it } from 'vitest';
import { createSchemaValidator, MAX_COMPILED_SCHEMAS } from '../../src/guard/schema-validator.js';

const schema = (n: number) => ({ type: 'object', properties: { [`f${n}`]: { type: 'string', pattern: `^a${n}` } } });

describe('createSchemaValidator', () => {
  it('validates as the SDK does', () => {
    const check = createSchemaValidator().getValidator({ type: 'object', required: ['a'] } as JsonSchemaType);
    expect(check({ a: 1 })).toEqual({ valid: true, data: { a: 1 }, errorMessage: undefined });
    expect(check({})).toEqual({ valid: false, data: undefined, errorMessage: "data must have required property 'a'" });
  });

  it('compiles a schema once whatever its key order', () => {
    const validator = createSchemaValidator();
    const first = validator.getValidator({ type: 'object', required: ['a'] } as JsonSchemaType);
    const again = validator.getValidator({ required: ['a'], type: 'object' } as JsonSchemaType);
    expect(again).toBe(first);
    expect(validator.size()).toBe(1);
  });

  it(`keeps at most ${MAX_COMPILED_SCHEMAS} compiled schemas`, () => {
    const validator = createSchemaValidator();
    for (let n = 0; n < MAX_COMPILED_SCHEMAS + 300; n++) validator.getValidator(schema(n) as JsonSchemaType);
    expect(validator.size()).toBe(MAX_COMPILED_SCHEMAS);
    // The evicted are compiled again when asked for, and still check.
    expect(validator.getValidator(schema(0) as JsonSchemaType)({ f0: 'b' }).valid).toBe(false);
  });

  it('accepts everything for a schema that does not compile, and tells why', () => {
    const validator = createSchemaValidator();
    for (const broken of [{ $ref: '#/nope' }, { type: 'bogus' }, { type: 'string', pattern: '(' }]) {
      const check = validator.getValidator(broken as JsonSchemaType);
      expect(check(42)).toEqual({ valid: true, data: 42, errorMessage: undefined });
      expect(validator.failure(broken)).toMatch(/\w/);
    }
    expect(validator.failure({ type: 'string' })).toBeUndefined();
  });

  it("never lets one schema's $id answer for another's", () => {
    const validator = createSchemaValidator();
    const strings = validator.getValidator({ $id: 'https://example.com/x', type: 'string' } as JsonSchemaType);
    const numbers = validator.getValidator({ $id: 'https://example.com/x', type: 'number' } as JsonSchemaType);
    expect(strings('a').valid).toBe(true);
    expect(numbers('a').valid).toBe(false);
    expect(numbers(1).valid).toBe(true);
  });
});
