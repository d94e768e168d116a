/**
 * A bounded in-memory event store for one agent session (SPEC G1): lets a client that
 * lost an SSE stream resume it with `Last-Event-ID` without missing messages.
 * @module
 */
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Create a store that keeps the last `capacity` messages across the session's streams. */
export function createMemoryEventStore(capacity = 1_000): EventStore {
  const events: { id: EventId; stream: StreamId; message: JSONRPCMessage }[] = [];
  let seq = 0;
  return {
    async storeEvent(stream, message) {
      seq += 1;
      const id = `${stream}_${seq}`;
      events.push({ id, stream, message });
      if (events.length > capacity) events.splice(0, events.length - capacity);
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find((e) => e.id === eventId)?.stream;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((e) => e.id === lastEventId);
      if (at < 0) return '';
      const stream = events[at]?.stream ?? '';
      for (const e of events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
      return stream;
    },
  };
}
