/**
 * The messages a prompt expands to, by role: text as text, an image or audio as its media
 * type and size (with a download), an embedded resource as a read resource is shown, a link
 * to a resource by its URI, anything else as JSON.
 * @module
 */
import type { GetPromptResult, PromptMessage, ResourceContents } from '../api-types.js';
import { JsonView } from './json-view.js';
import { BlobDownload, ContentItem } from './resource-contents.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** One message's content. */
function Content({ content, index }: { content: PromptMessage['content']; index: number }) {
  if (content.type === 'text') return <pre class="prose message-text">{text(content.text)}</pre>;
  if ((content.type === 'image' || content.type === 'audio') && typeof content.data === 'string')
    return (
      <BlobDownload
        data={content.data}
        mimeType={text(content.mimeType)}
        name={`message-${index + 1}.${text(content.mimeType)?.split('/')[1]?.replace(/\W.*$/, '') || 'bin'}`}
      />
    );
  if (content.type === 'resource' && content.resource && typeof content.resource === 'object')
    return <ContentItem item={content.resource as ResourceContents} />;
  if (content.type === 'resource_link')
    return (
      <p>
        Link to <code>{text(content.uri)}</code> {text(content.name) && `(${text(content.name)})`}
      </p>
    );
  return <JsonView value={content} />;
}

/** The prompt's messages, and its description when it gave one. */
export function PromptMessages({ result, prompt }: { result: GetPromptResult; prompt: string }) {
  return (
    <section class="result" aria-label={`Messages of ${prompt}`}>
      {result.description && <p class="prose">{result.description}</p>}
      <ol class="messages">
        {result.messages.map((message, index) => (
          <li key={index} class={`message role-${message.role}`} data-role={message.role}>
            <span class="badge">{message.role}</span>
            <Content content={message.content} index={index} />
          </li>
        ))}
      </ol>
    </section>
  );
}
