/**
 * Server-sent events read from a fetch response's body, for streams an `EventSource` cannot
 * open (a POST, such as a bot's chat turn). Pure over a web `ReadableStream`, so it runs in
 * a browser and in the tests alike.
 * @module
 */

/** One event: its `event:` name (`message` when absent) and its `data:` lines joined. */
export type StreamedEvent = { readonly event: string; readonly data: string };

/** The events of `body` as they arrive; comments (heartbeats) and events without data are skipped. */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamedEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // CRLF and CR end lines too; a CR at the very end may be the first half of a CRLF.
      buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n/g, '\n').replace(/\r(?!$)/g, '\n');
      for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
        const parsed = parseBlock(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (parsed) yield parsed;
      }
    }
    const last = parseBlock(buffer);
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}

function parseBlock(block: string): StreamedEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}
