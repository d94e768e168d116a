/**
 * A tool call's result as MCP gives it: each content item (text as text, an image as an
 * image, anything else as JSON), the structured content, and whether the tool said it failed.
 * @module
 */
import type { ToolCallResult } from '../api-types.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One content item. */
function Item({ item }: { item: Record<string, unknown> }) {
  if (item.type === 'text') return <pre class="result-text">{text(item.text)}</pre>;
  const mime = text(item.mimeType);
  if (item.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(mime))
    return <img class="result-image" alt="what the tool returned" src={`data:${mime};base64,${text(item.data)}`} />;
  return <pre>{JSON.stringify(item, null, 2)}</pre>;
}

/** The result. */
export function CallResult({ result }: { result: ToolCallResult }) {
  return (
    <section class={result.isError ? 'result failed' : 'result'} aria-label="result">
      <h4>{result.isError ? 'The tool reported an error' : 'Result'}</h4>
      {result.content.map((item, index) => (
        <Item key={index} item={item} />
      ))}
      {result.structuredContent !== undefined && (
        <details open>
          <summary>Structured content</summary>
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
    </section>
  );
}
