/**
 * A tool call's answer as MCP gives it, and how long it took: each content item (text as
 * text, or highlighted when it is JSON; an image as an image; anything else as JSON), the
 * structured content highlighted, whether the tool said it failed, and a Copy button for the
 * JSON shown first (the structured content, else the first text that is JSON, else the
 * whole result).
 * @module
 */
import type { ToolCallAnswer } from '../api-types.js';
import { CopyButton } from './copy-button.js';
import { JsonView, jsonText, parseJsonText } from './json-view.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A duration as a person reads it: `took 340 ms`, `took 1.24 s`, `took 2 min 5 s`. */
export function tookText(ms: number): string {
  if (ms < 1_000) return `took ${Math.round(ms)} ms`;
  if (ms < 60_000) return `took ${(ms / 1_000).toFixed(2)} s`;
  return `took ${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

/** One content item; `id` names it when it holds what Copy copies. */
function Item({ item, id }: { item: Record<string, unknown>; id: string | undefined }) {
  if (item.type === 'text') {
    const json = parseJsonText(text(item.text));
    return json === undefined ? (
      <pre class="result-text">{text(item.text)}</pre>
    ) : (
      <JsonView value={json} {...(id ? { id } : {})} />
    );
  }
  const mime = text(item.mimeType);
  if (item.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(mime))
    return <img class="result-image" alt="what the tool returned" src={`data:${mime};base64,${text(item.data)}`} />;
  return <JsonView value={item} />;
}

/** The answer; `id` is unique on the page (the copied block is named after it). */
export function CallResult({ answer, id }: { answer: ToolCallAnswer; id: string }) {
  const { result, durationMs } = answer;
  const jsonAt = result.content.findIndex(
    (item) => item.type === 'text' && parseJsonText(text(item.text)) !== undefined,
  );
  const structured = result.structuredContent !== undefined;
  const copied = structured
    ? result.structuredContent
    : jsonAt >= 0
      ? parseJsonText(text(result.content[jsonAt]?.text))
      : result;
  // Where the copied JSON is on the page, selected for Ctrl+C when the clipboard is refused.
  const target = `${id}-copied`;
  return (
    <section
      class={result.isError ? 'result failed' : 'result'}
      aria-label="result"
      {...(structured || jsonAt >= 0 ? {} : { id: target })}
    >
      <h4>
        {result.isError ? 'The tool reported an error' : 'Result'} <span class="took">{tookText(durationMs)}</span>
      </h4>
      <p class="result-copy">
        <CopyButton text={jsonText(copied)} target={target} label="Copy JSON" />
      </p>
      {result.content.map((item, index) => (
        <Item key={index} item={item} id={!structured && index === jsonAt ? target : undefined} />
      ))}
      {structured && (
        <details open>
          <summary>Structured content</summary>
          <JsonView value={result.structuredContent} id={target} />
        </details>
      )}
    </section>
  );
}
