/**
 * The JSON Schema validator every upstream client and agent session shares (X8: bounded
 * memory whatever a client does). The SDK's client asks for a validator for each tool's
 * `outputSchema` on every `tools/list` page, relist and reconnect; the SDK's own Ajv validator
 * compiles each time and Ajv keeps every compiled schema (about 10 KB each) for ever, so a
 * server relisting a big catalog grew memory by tens of MB a second. Here:
 *
 * - one compile per distinct schema: compiled validators are cached under a hash of the
 *   schema's canonical JSON, at most {@link MAX_COMPILED_SCHEMAS} of them and
 *   {@link MAX_COMPILED_SCHEMA_BYTES} of schema text, least recently used evicted first;
 * - Ajv keeps nothing: every schema is removed from it after its compile (failed or not),
 *   which also stops one server's `$id` from answering for another's schema; and as Ajv's
 *   code scope keeps a reference to every schema it compiled even after `removeSchema`, a
 *   fresh Ajv is made every {@link COMPILES_PER_AJV} compiles (the old one lives on only
 *   in the validators still cached);
 * - a schema that does not compile (an unresolvable `$ref`, `type: "bogus"`, `pattern: "("`)
 *   gets a validator that accepts everything instead of throwing out of `listTools`, which
 *   kept the whole server from connecting; {@link SchemaValidator.failure} tells why, so the
 *   server's log can name the tool.
 * @module
 */
import { createHash } from 'node:crypto';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  JsonSchemaValidatorResult,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { Ajv } from 'ajv';
import { default as addFormats } from 'ajv-formats';
import { canonicalJson } from './canonical-json.js';

/** How many compiled schemas are kept (about 10 KB each). */
export const MAX_COMPILED_SCHEMAS = 1_000;
/** How much canonical schema text the kept schemas may add up to. */
export const MAX_COMPILED_SCHEMA_BYTES = 16 * 1024 * 1024;
/** Compiles per Ajv instance before a fresh one is made (its code scope keeps every schema). */
export const COMPILES_PER_AJV = 256;

/** The SDK's validator interface, and why a schema did not compile. */
export type SchemaValidator = jsonSchemaValidator & {
  /** Why this very schema object did not compile; undefined when it did or was never asked for. */
  failure?(schema: object): string | undefined;
};

/** {@link createSchemaValidator}'s validator, with its cache's size for tests and metrics. */
export type BoundedSchemaValidator = Required<SchemaValidator> & {
  /** How many compiled schemas the cache holds now. */
  size(): number;
};

type Entry = { readonly validate: JsonSchemaValidator<unknown>; readonly bytes: number; readonly error?: string };

// The SDK's options (validation/ajv-provider.js), so results are what its validator gave.
function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}

const acceptAll: JsonSchemaValidator<unknown> = (input) => ({ valid: true, data: input, errorMessage: undefined });

/** A validator with a bounded cache of compiled schemas; Ajv is made at the first compile. */
export function createSchemaValidator(): BoundedSchemaValidator {
  const cache = new Map<string, Entry>();
  const failures = new WeakMap<object, string>();
  let bytes = 0;
  let ajv: Ajv | null = null;
  let compiles = 0;

  const compile = (schema: JsonSchemaType, size: number): Entry => {
    if (ajv === null || compiles >= COMPILES_PER_AJV) {
      ajv = makeAjv();
      compiles = 0;
    }
    compiles++;
    const owner = ajv;
    try {
      const check = owner.compile(schema);
      const validate = (input: unknown): JsonSchemaValidatorResult<unknown> =>
        check(input)
          ? { valid: true, data: input, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: owner.errorsText(check.errors) };
      return { validate, bytes: size };
    } catch (error) {
      return { validate: acceptAll, bytes: size, error: error instanceof Error ? error.message : String(error) };
    } finally {
      // Every schema but the meta-schemas, with the `$id`s of nested schemas too.
      owner.removeSchema();
    }
  };

  const remember = (key: string, entry: Entry) => {
    cache.set(key, entry);
    bytes += entry.bytes;
    for (const [oldest, old] of cache) {
      if (cache.size <= MAX_COMPILED_SCHEMAS && bytes <= MAX_COMPILED_SCHEMA_BYTES) break;
      cache.delete(oldest);
      bytes -= old.bytes;
    }
  };

  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const text = canonicalJson(schema) ?? 'null';
      const key = createHash('sha256').update(text).digest('base64');
      let entry = cache.get(key);
      if (entry) {
        // Most recently used last: eviction takes the first.
        cache.delete(key);
        cache.set(key, entry);
      } else {
        entry = compile(schema, text.length);
        remember(key, entry);
      }
      if (entry.error !== undefined && typeof schema === 'object' && schema !== null) failures.set(schema, entry.error);
      return entry.validate as JsonSchemaValidator<T>;
    },
    failure: (schema) => failures.get(schema),
    size: () => cache.size,
  };
}
