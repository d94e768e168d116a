/**
 * Telling a server's log which of its tools' output schemas do not compile. The shared
 * validator ({@link SchemaValidator}) gives such a tool a validator that accepts everything,
 * so the tool is still served but its results are not checked: the operator should know,
 * once, and not again at every relist of an unchanged catalog.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { SchemaValidator } from '../guard/schema-validator.js';

/** How many tool names one warning quotes; the rest are counted. */
const NAMES_QUOTED = 20;

/**
 * A function to call with each listing's tools: it warns on `log` naming the tools whose
 * output schema did not compile and that the previous listing had not already named. What
 * it remembers is the names failing in the latest listing, so it stays within the catalog.
 */
export function createSchemaWarnings(
  validator: SchemaValidator | undefined,
  log: Pick<Logger, 'warn'>,
): (tools: readonly Tool[]) => void {
  let named = new Set<string>();
  return (tools) => {
    if (!validator?.failure) return;
    const failing = new Map<string, string>();
    for (const tool of tools) {
      const reason = tool.outputSchema && validator.failure(tool.outputSchema);
      if (reason) failing.set(tool.name, reason);
    }
    const fresh = [...failing].filter(([name]) => !named.has(name));
    named = new Set(failing.keys());
    if (fresh.length === 0) return;
    log.warn(
      {
        tools: fresh.length,
        reasons: Object.fromEntries(fresh.slice(0, NAMES_QUOTED).map(([name, why]) => [name.slice(0, 200), why])),
      },
      'tool output schemas do not compile: those tools are served, their results not validated',
    );
  };
}
