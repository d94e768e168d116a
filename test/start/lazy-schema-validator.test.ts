import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { lazySchemaValidator } from '../../src/start/lazy-schema-validator.js';

describe('lazySchemaValidator', () => {
  it('makes the real validator once, at the first schema, and checks with it', () => {
    let made = 0;
    const validator = lazySchemaValidator(() => {
      made++;
      return new AjvJsonSchemaValidator();
    });
    expect(made).toBe(0);
    const check = validator.getValidator<{ n: number }>({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    expect(check({ n: 1 })).toMatchObject({ valid: true });
    expect(check({ n: 'x' })).toMatchObject({ valid: false });
    validator.getValidator({ type: 'string' });
    expect(made).toBe(1);
  });
});
