/**
 * The sanitizer on the gateway's path (SPEC X4): every description an agent is shown and
 * every tool result and resource text it receives passes `src/guard/sanitize-*`. Listed
 * items are sanitized once per object (views are cached), and each change is logged once,
 * with its flags, the lengths before and after, and excerpts of at most
 * {@link EXCERPT_CHARS} characters around the first difference (seed 001: "before/after
 * for debugging"), in which every secret the service knows is masked before cutting.
 * @module
 */
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { excerptChange } from '../../guard/excerpt-change.js';
import {
  sanitizeCallResult,
  sanitizePrompt,
  sanitizeResource,
  sanitizeTool,
  TOO_DEEP_RESULT,
} from '../../guard/sanitize-mcp.js';
import { sanitizeText } from '../../guard/sanitize-text.js';

/** Characters of each before/after excerpt in the log. */
export const EXCERPT_CHARS = 200;

/** The limits in force (from `sanitize` in the config). */
export type SanitizeLimits = { descriptionMaxLength: number; resultMaxLength: number };

/** What the gateway calls; `sanitized` says whether a result was changed (for the audit row). */
export type GatewaySanitizer = ReturnType<typeof createGatewaySanitizer>;

/** Distinct (kind, name, flags) warned about at most; then they are warned about again. */
const MAX_REPORTED = 10_000;

/** Create the sanitizer of one gateway. */
export function createGatewaySanitizer({
  log,
  limits,
  secrets = () => [],
}: {
  log: Logger;
  limits: () => SanitizeLimits;
  /** Values never to show in an excerpt: keystore secrets in use, servers' env and header values. */
  secrets?: () => Iterable<string>;
}) {
  const done = new WeakMap<object, object>();
  const reported = new Set<string>();
  const report = (
    what: string,
    name: string,
    flags: readonly string[],
    before: unknown,
    after: unknown,
    into: () => Logger = () => log,
  ) => {
    const key = `${what}\u0000${name}\u0000${flags.join(',')}`;
    if (reported.has(key)) return;
    // Bounded (X8): an upstream naming ever new resources would grow it for ever; past the
    // bound the warnings start again rather than memory.
    if (reported.size >= MAX_REPORTED) reported.clear();
    reported.add(key);
    const was = JSON.stringify(before) ?? '';
    const now = JSON.stringify(after) ?? '';
    // A secret is looked for as written and as JSON escapes it (the excerpts are of JSON text).
    const known = [...secrets()].flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
    const excerpt = excerptChange(was, now, { maxChars: EXCERPT_CHARS, secrets: known });
    into().warn(
      {
        what,
        name,
        flags,
        beforeLength: was.length,
        afterLength: now.length,
        before: excerpt.before,
        after: excerpt.after,
      },
      'sanitized content from upstream',
    );
  };
  const once = <T extends object>(
    item: T,
    what: string,
    name: string,
    run: (item: T) => { value: T; changed: boolean; flags: string[] },
  ): T => {
    const cached = done.get(item);
    if (cached) return cached as T;
    const { value, changed, flags } = run(item);
    if (changed || flags.length > 0) report(what, name, flags, item, value);
    done.set(item, value);
    return value;
  };
  const descriptions = () => ({ maxLength: limits().descriptionMaxLength });
  const results = () => ({ maxLength: limits().resultMaxLength });

  return {
    tools: (tools: readonly Tool[]) =>
      tools.map((t) =>
        once(t, 'tool', t.name, (x) => {
          const r = sanitizeTool(x, descriptions());
          return { value: r.tool, changed: r.changed, flags: r.flags };
        }),
      ),
    prompts: (prompts: readonly Prompt[]) =>
      prompts.map((p) =>
        once(p, 'prompt', p.name, (x) => {
          const r = sanitizePrompt(x, descriptions());
          return { value: r.prompt, changed: r.changed, flags: r.flags };
        }),
      ),
    resources: <T extends Resource | ResourceTemplate>(items: readonly T[]) =>
      items.map((item) =>
        once(item, 'resource', item.name, (x) => {
          const r = sanitizeResource(x, descriptions());
          return { value: r.resource, changed: r.changed, flags: r.flags };
        }),
      ),
    /**
     * A tool result; `sanitized` is true when anything was changed or flagged. `requestLog`:
     * the logger of the request it answers (its line names the request's trace, issue 21).
     */
    result(
      server: string,
      tool: string,
      result: CallToolResult,
      requestLog?: () => Logger,
    ): { result: CallToolResult; sanitized: boolean } {
      const r = sanitizeCallResult(result, results());
      // The original cannot be quoted: writing it is what overflows the stack.
      if (r.result === TOO_DEEP_RESULT) {
        (requestLog?.() ?? log).warn({ what: 'result', name: `${server}/${tool}` }, firstLine(TOO_DEEP_RESULT));
        return { result: r.result, sanitized: true };
      }
      if (r.changed || r.flags.length > 0) report('result', `${server}/${tool}`, r.flags, result, r.result, requestLog);
      return { result: r.result, sanitized: r.changed || r.flags.length > 0 };
    },
    /** Text of the messages a prompt expands to: upstream text the model will read; `sanitized` for the audit row. */
    promptResult(
      server: string,
      name: string,
      result: GetPromptResult,
      requestLog?: () => Logger,
    ): { result: GetPromptResult; sanitized: boolean } {
      let flagged: string[] = [];
      let changed = false;
      const clean = (text: string) => {
        const r = sanitizeText(text, { kind: 'result', maxLength: limits().resultMaxLength });
        if (r.changed || r.flags.length > 0) flagged = [...flagged, ...r.flags];
        changed ||= r.changed;
        return r.text;
      };
      const messages = result.messages.map((m) => {
        const content = m.content;
        if (content.type === 'text') return { ...m, content: { ...content, text: clean(content.text) } };
        if (content.type === 'resource' && 'text' in content.resource && typeof content.resource.text === 'string') {
          return {
            ...m,
            content: { ...content, resource: { ...content.resource, text: clean(content.resource.text) } },
          };
        }
        return m;
      });
      if (flagged.length > 0) report('prompt', `${server}/${name}`, flagged, result.messages, messages, requestLog);
      const description = result.description === undefined ? undefined : clean(result.description);
      const sanitized = flagged.length > 0 || changed;
      return { result: { ...result, messages, ...(description === undefined ? {} : { description }) }, sanitized };
    },
    /** Text contents of a resource read; `sanitized` for the audit row. */
    resourceResult(
      server: string,
      result: ReadResourceResult,
      requestLog?: () => Logger,
    ): { result: ReadResourceResult; sanitized: boolean } {
      let flagged: string[] = [];
      let changed = false;
      const contents = result.contents.map((c) => {
        if (!('text' in c) || typeof c.text !== 'string') return c;
        const r = sanitizeText(c.text, { kind: 'result', maxLength: limits().resultMaxLength });
        if (!r.changed && r.flags.length === 0) return c;
        flagged = [...flagged, ...r.flags];
        changed ||= r.changed;
        return { ...c, text: r.text };
      });
      if (flagged.length > 0)
        report('resource', `${server}/${result.contents[0]?.uri ?? ''}`, flagged, result, contents, requestLog);
      return { result: { ...result, contents }, sanitized: changed || flagged.length > 0 };
    },
  };
}

/** The text of a result's first block. */
function firstLine(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : 'tool result refused';
}
