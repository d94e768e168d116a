/**
 * Server-sent events from a fetch response, one parsed event at a time (comments such as
 * heartbeats are skipped). Used by `bnity mcp events` and by the commands that wait for a
 * server's first state.
 * @module
 */

/** One event: its type, id and the JSON of its data (text when it is not JSON). */
export type SseEvent = { event: string; id: string | null; data: unknown };

/** Yield each event of `response`'s body until it ends or its signal aborts. */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const event = parseBlock(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (event) yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const at = line.indexOf(':');
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  try {
    return { event, id, data: JSON.parse(text) };
  } catch {
    return { event, id, data: text };
  }
}
