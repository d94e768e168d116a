/**
 * The JSON Schema validator every upstream client and agent session shares, made at the
 * first schema one of them checks (a tool's output schema, an elicitation's form), not
 * before the upstreams are spawned (issue 8: building Ajv costs about 6 ms of start-up CPU).
 * @module
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/** A validator that makes the real one with `make` when first asked for a check. */
export function lazySchemaValidator(make: () => jsonSchemaValidator): jsonSchemaValidator {
  let made: jsonSchemaValidator | null = null;
  return {
    getValidator(schema) {
      made ??= make();
      return made.getValidator(schema);
    },
  };
}
