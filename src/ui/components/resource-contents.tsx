/**
 * A resource's contents as read: text in a block, JSON (a `json` media type, or text that
 * parses as an object or array) highlighted, and binary contents as their media type and
 * size with a link that downloads the bytes (a `blob:` URL, let go when the view goes).
 * @module
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ResourceContents as Contents } from '../api-types.js';
import { JsonView, parseJsonText } from './json-view.js';

/** `bytes` as people read sizes: `69 B`, `12.3 KB`, `4.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The bytes of base64 `data`; null when it is not base64. */
function decode(data: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The JSON value `text` holds, when its media type says JSON or it parses as an object or array. */
function jsonOf(text: string, mimeType: string | undefined): { value: unknown } | null {
  const parsed = parseJsonText(text);
  if (parsed !== undefined) return { value: parsed };
  if (!mimeType || !/json/i.test(mimeType)) return null;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

/** A file name for a download: the URI's last segment, else `resource`. */
function fileNameOf(uri: string): string {
  const last = uri.split(/[/?#]/).filter(Boolean).pop() ?? '';
  return /^[\w.-]{1,80}$/.test(last) && !last.includes(':') ? last : 'resource';
}

/** Binary data as its media type and size, and a link that saves it as `name`. */
export function BlobDownload({ data, mimeType, name }: { data: string; mimeType: string | undefined; name: string }) {
  const bytes = useMemo(() => decode(data), [data]);
  const type = mimeType ?? 'application/octet-stream';
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!bytes) return undefined;
    const made = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes, type]);
  if (!bytes) return <p class="error">{type}: the data is not base64.</p>;
  return (
    <p class="blob">
      <span class="blob-size">
        {type}, {formatBytes(bytes.length)}
      </span>{' '}
      {url && (
        <a href={url} download={name}>
          Download {name}
        </a>
      )}
    </p>
  );
}

/** One content: its URI and type, then what it holds. */
export function ContentItem({ item }: { item: Contents }) {
  const json = typeof item.text === 'string' ? jsonOf(item.text, item.mimeType) : null;
  return (
    <div class="content-item" data-uri={item.uri}>
      <p class="note">
        <code>{item.uri}</code>
        {item.mimeType && ` · ${item.mimeType}`}
      </p>
      {typeof item.blob === 'string' ? (
        <BlobDownload data={item.blob} mimeType={item.mimeType} name={fileNameOf(item.uri)} />
      ) : json ? (
        <JsonView value={json.value} />
      ) : (
        <pre class="resource-text">{item.text ?? ''}</pre>
      )}
    </div>
  );
}

/** Everything a read gave. */
export function ResourceContents({ contents, label }: { contents: readonly Contents[]; label: string }) {
  return (
    <section class="result" aria-label={label}>
      {contents.length === 0 && <p class="note">The server gave no contents.</p>}
      {contents.map((item, index) => (
        <ContentItem key={`${item.uri}-${index}`} item={item} />
      ))}
    </section>
  );
}
