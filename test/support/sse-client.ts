/** A minimal SSE reader over fetch for tests: collects parsed events as they arrive. */
export type SseEvent = { event: string; id: string | null; data: unknown };

/** Open an SSE stream; `events` fills as events arrive; `next(pred)` waits for a match. */
export async function openSse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`SSE ${url} answered ${response.status}`);
  const events: SseEvent[] = [];
  const waiters: { predicate: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; from: number }[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          const parsed = parseBlock(block);
          if (!parsed) continue;
          events.push(parsed);
          for (const w of [...waiters]) {
            if (w.predicate(parsed)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(parsed);
            }
          }
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    events,
    /** Resolve with the first event (already received or future) matching `predicate`. */
    next(predicate: (e: SseEvent) => boolean, timeoutMs = 15_000): Promise<SseEvent> {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no matching SSE event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(',')}`),
            ),
          timeoutMs,
        );
        waiters.push({
          predicate,
          from: events.length,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text data
  }
  return { event, id, data: parsed };
}
