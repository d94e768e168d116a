/**
 * What every `/api` route shares (SPEC A1): the one error shape, the validation hook that
 * turns a zod failure into it (the field named), the path parameters, and `createApi()`, the
 * OpenAPIHono every route module starts from, so requests are validated by the same zod
 * schemas the OpenAPI document is generated from.
 * @module
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { SERVER_NAME } from '../../config/schema.js';

/** One problem with a request: the field (a dotted path; empty for the whole body) and what is wrong. */
export const IssueSchema = z
  .object({
    field: z.string(),
    message: z.string(),
    server: z.string().nullable().optional(),
    line: z.number().int().optional().openapi({ description: 'Where in the config file (1-based), when known' }),
    column: z.number().int().optional(),
  })
  .openapi('Issue');

/** The one error shape of `/api`: `{"error":{"code","message","issues"?}}`. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'bad_request' }),
      message: z.string().openapi({ example: 'invalid request body: url: expected a string' }),
      issues: z.array(IssueSchema).optional(),
    }),
  })
  .openapi('Error');

const ERROR_TEXT: Readonly<Record<number, string>> = Object.freeze({
  400: 'Invalid input; `issues` name the fields',
  401: 'Missing or invalid bearer token',
  403: 'A token for the MCP endpoints, or an Origin not allowed',
  404: 'No such server, tool, token or route',
  409: 'The name is in use; the config file is locked by another writer or kept changing; (`config_file_invalid`) the file on disk is invalid: fix or revert it; or (cluster mode, `conflict`) the config version of `If-Match` is no longer the latest: read it again and retry',
  413: 'The body is over `http.maxBodyBytes`',
  415: 'The body is not `application/json`',
  429: 'Rate limited; see `Retry-After`',
  502: 'The upstream server failed',
  503: 'The server is not connected',
});

/** OpenAPI responses for the error statuses a route can answer (401, 403 and 429 are always possible). */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    [...new Set([...statuses, 401, 403, 429])].map((status) => [
      status,
      { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ErrorSchema } } },
    ]),
  );
}

/**
 * A JSON response for OpenAPI. The schema documents the answer; it is typed loosely so that a
 * handler answers with the domain objects (which the schema describes) without restating them.
 */
export function jsonResponse(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema: schema as z.ZodType<unknown> } } };
}

/** A JSON request body for OpenAPI, required. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, content: { 'application/json': { schema } }, ...(description ? { description } : {}) };
}

/** A server's name in a path; anything else is a 404 from the route, never a file path. */
export const ServerParams = z.object({
  name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'memory' }),
});

/** A server's name and one of its tools in a path. */
export const ServerToolParams = ServerParams.extend({
  tool: z.string().openapi({ param: { name: 'tool', in: 'path' }, example: 'read_graph' }),
});

/** A server name as a new server may have it (also no path traversal: no `/`, no leading `.`). */
export const NewServerName = z
  .string()
  .regex(
    SERVER_NAME,
    'invalid server name: use up to 48 letters, digits, "_", "." or "-", starting with a letter or digit',
  )
  .openapi({ example: 'fs' });

/**
 * `If-Match` of a config edit (cluster mode, ADR 040): the config version the edit was made
 * on (`GET /api/config` gives it), as `7` or `"7"`. Another version in force answers 409.
 */
export const IfMatchHeaders = z.object({
  'if-match': z
    .string()
    .regex(/^\s*(W\/)?"?\d{1,15}"?\s*$/, 'expected the config version the edit was made on, e.g. "7"')
    .transform((value) => Number(value.replace(/\D/g, '')))
    .optional()
    .openapi({
      param: { name: 'if-match', in: 'header' },
      description:
        'Cluster mode: the config version (`GET /api/config`) the edit was made on; when another version is in force the edit is refused with 409 and nothing is written. Ignored for a config file.',
      example: '"7"',
    }),
});

/** A whole number in a query string (`?tail=50`), at least `min` and at most `max`. */
export function wholeNumberQuery(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

const WHAT: Readonly<Record<string, string>> = Object.freeze({
  json: 'invalid request body',
  query: 'invalid query',
  param: 'invalid path',
  header: 'invalid header',
});

/** Zod issues as API issues; each unknown key becomes its own issue naming it. */
export function apiIssues(error: ZodError): { field: string; message: string }[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: [...at, key].join('.'), message: 'unknown field' }));
    return [{ field: at.join('.'), message: issue.message }];
  });
}

/** The validation hook: a request that fails its schema gets 400 naming the field. */
export function validationHook(
  result: { target: string; success: true; data: unknown } | { target: string; success: false; error: ZodError },
  c: Context,
) {
  if (result.success) return undefined;
  const issues = apiIssues(result.error);
  const first = issues[0];
  const where = first ? `: ${first.field === '' ? '' : `${first.field}: `}${first.message}` : '';
  return c.json(
    { error: { code: 'bad_request', message: `${WHAT[result.target] ?? 'invalid request'}${where}`, issues } },
    400,
  );
}

/** A new OpenAPIHono whose validation failures answer with the one error shape. */
export function createApi(): OpenAPIHono {
  return new OpenAPIHono({ defaultHook: validationHook });
}
