/**
 * A tool result as text, for an LLM's history and for `{{steps.<id>.text}}`. The text items
 * are passed on exactly as the tool port returned them (already sanitized by the gateway);
 * other items are named, not inlined.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The result's text items joined by newlines; other items as `[image image/png]`-style notes. */
export function toolResultText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return content
    .map((item) => {
      switch (item.type) {
        case 'text':
          return item.text;
        case 'image':
        case 'audio':
          return `[${item.type} ${item.mimeType}]`;
        case 'resource':
          return 'text' in item.resource ? item.resource.text : `[resource ${item.resource.uri}]`;
        case 'resource_link':
          return `[resource link ${item.uri}]`;
        default:
          return `[${(item as { type: string }).type}]`;
      }
    })
    .join('\n');
}
