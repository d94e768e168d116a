/**
 * The sanitizer (SPEC X4) applied to MCP objects from upstream: only description-like
 * strings of tools, prompts and resources, and the text of tool results, are rewritten;
 * names, URIs, schema types and enum values are never touched. Pure.
 * @module
 */
import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { type SanitizeOptions, sanitizeText } from './sanitize-text.js';

/** A value nested past {@link MAX_JSON_DEPTH}: the walk stops there rather than overflow the stack. */
class TooDeepError extends Error {}

/** Options of an object walker: the maximum length of each string (default per kind). */
export interface WalkOptions {
  readonly maxLength?: number;
}

/** Whether sanitizing an object changed anything, and the union of the flags of its strings. */
export interface SanitizeSummary {
  readonly changed: boolean;
  readonly flags: string[];
}

/** Collects the flags and change of the strings of one object. */
class Walk {
  readonly flags = new Set<string>();
  changed = false;
  constructor(private readonly options: SanitizeOptions) {}

  text(value: string): string {
    const r = sanitizeText(value, this.options);
    for (const f of r.flags) this.flags.add(f);
    if (r.changed) this.changed = true;
    return r.text;
  }

  /** Sanitizes the named string fields of a record; other fields are copied as they are. */
  fields<T extends object>(obj: T, keys: readonly string[]): T {
    const out = { ...obj } as Record<string, unknown>;
    for (const k of keys) if (typeof out[k] === 'string') out[k] = this.text(out[k] as string);
    return out as T;
  }

  /** Every string inside a JSON value, keys excepted. */
  deep(value: unknown, depth = 1): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    // Counted here, in the walk a result gets anyway: no pass of its own on the call path.
    if (depth > MAX_JSON_DEPTH) throw new TooDeepError();
    if (Array.isArray(value)) return value.map((v) => this.deep(v, depth + 1));
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.deep(v, depth + 1)]));
    return value;
  }

  /** The `description`/`title` strings of a JSON Schema, following only subschema keywords. */
  schema(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.schema(v));
    if (!isRecord(value)) return value;
    const out = this.fields<Record<string, unknown>>(value, ['description', 'title']);
    for (const [k, v] of Object.entries(value)) {
      if (SCHEMA_MAPS.has(k) && isRecord(v)) {
        out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, this.schema(s)]));
      } else if (SUBSCHEMAS.has(k)) {
        out[k] = this.schema(v);
      }
    }
    return out;
  }

  summary(): SanitizeSummary {
    return { changed: this.changed, flags: [...this.flags] };
  }
}

/**
 * Keywords whose value is a map from names to subschemas (draft-07's `dependencies` maps to a
 * subschema or to a list of names, which the walk leaves as it is).
 */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is a subschema or an array of them. */
const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalItems',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const description = (o: WalkOptions): SanitizeOptions => ({ kind: 'description', maxLength: o.maxLength });

/** Sanitizes a tool's description, title, annotation title and schema descriptions/titles. */
export function sanitizeTool(tool: Tool, options: WalkOptions = {}): SanitizeSummary & { tool: Tool } {
  const w = new Walk(description(options));
  const out = w.fields(tool, ['description', 'title']);
  out.inputSchema = w.schema(tool.inputSchema) as Tool['inputSchema'];
  if (tool.outputSchema) out.outputSchema = w.schema(tool.outputSchema) as Tool['outputSchema'];
  if (tool.annotations) out.annotations = w.fields(tool.annotations, ['title']);
  return { tool: out, ...w.summary() };
}

/** Sanitizes a prompt's description, title and its arguments' descriptions and titles. */
export function sanitizePrompt(prompt: Prompt, options: WalkOptions = {}): SanitizeSummary & { prompt: Prompt } {
  const w = new Walk(description(options));
  const out = w.fields(prompt, ['description', 'title']);
  if (prompt.arguments) out.arguments = prompt.arguments.map((a) => w.fields(a, ['description', 'title']));
  return { prompt: out, ...w.summary() };
}

/** Sanitizes a resource's or resource template's description and title. */
export function sanitizeResource<T extends Resource | ResourceTemplate>(
  resource: T,
  options: WalkOptions = {},
): SanitizeSummary & { resource: T } {
  const w = new Walk(description(options));
  return { resource: w.fields(resource, ['description', 'title']), ...w.summary() };
}

/** What a result whose structuredContent nests past {@link MAX_JSON_DEPTH} is answered with. */
export const TOO_DEEP_RESULT: CallToolResult = {
  content: [
    {
      type: 'text',
      text: `the tool's structuredContent is nested deeper than ${MAX_JSON_DEPTH} levels: it was not relayed`,
    },
  ],
  isError: true,
};

/** Sanitizes a tool result: text items, embedded resource text, link descriptions, structured content. */
export function sanitizeCallResult(
  result: CallToolResult,
  options: WalkOptions = {},
): SanitizeSummary & { result: CallToolResult } {
  const w = new Walk({ kind: 'result', maxLength: options.maxLength });
  const out: CallToolResult = { ...result };
  out.content = result.content.map((item) => {
    if (item.type === 'text') return w.fields(item, ['text']);
    if (item.type === 'resource' && 'text' in item.resource) {
      return { ...item, resource: w.fields(item.resource, ['text']) };
    }
    if (item.type === 'resource_link') return w.fields(item, ['description', 'title']);
    return item;
  });
  if (result.structuredContent) {
    try {
      out.structuredContent = w.deep(result.structuredContent) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof TooDeepError)) throw error;
      // Nothing of it reaches the agent: it could be neither sanitized nor written (X8).
      return { result: TOO_DEEP_RESULT, changed: true, flags: [] };
    }
  }
  return { result: out, ...w.summary() };
}
