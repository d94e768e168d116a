/**
 * Chat with a bot (SPEC B4): a message goes to `POST /api/bots/{slug}/chat` and the answer
 * streams back as it is written, with each tool the bot calls and what the tool answered.
 * The session id of the first answer is sent with the next message, so the conversation
 * goes on; New chat starts another. Stop interrupts the turn (the history records it).
 * @module
 */
import { useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { ChatEvent } from '../api-types.js';
import { ErrorNote } from './error-note.js';

/** One line of the conversation as shown. */
type Entry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; done: boolean }
  | { kind: 'tool_call'; id: string; name: string; arguments: string }
  | { kind: 'tool_result'; id: string; name: string; text: string; isError: boolean }
  | { kind: 'error'; text: string };

/** The conversation after one streamed event. */
function withEvent(entries: readonly Entry[], event: ChatEvent): Entry[] {
  const last = entries.at(-1);
  const open = last?.kind === 'assistant' && !last.done ? last : null;
  const before = open ? entries.slice(0, -1) : [...entries];
  switch (event.type) {
    case 'text':
      return [...before, { kind: 'assistant', text: (open?.text ?? '') + event.delta, done: false }];
    case 'tool_call':
      return [
        ...before,
        ...(open ? [{ ...open, done: true }] : []),
        { kind: 'tool_call', id: event.id, name: event.name, arguments: JSON.stringify(event.arguments) },
      ];
    case 'tool_result':
      return [
        ...entries,
        { kind: 'tool_result', id: event.id, name: event.name, text: event.text, isError: event.isError },
      ];
    case 'final':
      return [...before, ...(open ? [{ ...open, done: true }] : [])];
    default:
      return [...before, ...(open ? [{ ...open, done: true }] : []), { kind: 'error', text: event.message }];
  }
}

/** One entry. */
function Line({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case 'user':
      return <li class="chat-user">{entry.text}</li>;
    case 'assistant':
      return (
        <li class="chat-assistant" aria-busy={!entry.done}>
          {entry.text}
        </li>
      );
    case 'tool_call':
      return (
        <li class="chat-tool" data-tool-call={entry.name}>
          calls <code>{entry.name}</code> <code class="note">{entry.arguments}</code>
        </li>
      );
    case 'tool_result':
      return (
        <li class={entry.isError ? 'chat-tool failed' : 'chat-tool'} data-tool-result={entry.name}>
          <code>{entry.name}</code> answered: <span class="prose">{entry.text}</span>
        </li>
      );
    default:
      return <li class="chat-error error">{entry.text}</li>;
  }
}

/** The panel for bot `slug`; `onTurnEnd` runs after each turn (what it did is audited). */
export function ChatPanel({ api, slug, onTurnEnd }: { api: ApiClient; slug: string; onTurnEnd?: () => void }) {
  const [entries, setEntries] = useState<readonly Entry[]>([]);
  const [message, setMessage] = useState('');
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [usage, setUsage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const turn = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (event: Event) => {
    event.preventDefault();
    const text = message.trim();
    if (!text || busy) return;
    setMessage('');
    setFailure(null);
    setEntries((list) => [...list, { kind: 'user', text }]);
    const controller = new AbortController();
    turn.current = controller;
    setBusy(true);
    try {
      for await (const streamed of api.chat(
        slug,
        { message: text, ...(sessionId ? { sessionId } : {}) },
        controller.signal,
      )) {
        setEntries((list) => withEvent(list, streamed));
        if (streamed.type === 'final' || streamed.type === 'error') {
          setSessionId(streamed.sessionId);
          setUsage(`${streamed.usage.totalTokens} tokens this turn`);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) setFailure((error as Error).message);
    } finally {
      turn.current = null;
      setBusy(false);
      onTurnEnd?.();
    }
  };
  const reset = () => {
    turn.current?.abort();
    setEntries([]);
    setSessionId(null);
    setUsage(null);
  };
  return (
    <section aria-labelledby="chat-title" class="chat">
      <h2 id="chat-title">Chat</h2>
      <ol class="chat-log" aria-live="polite" aria-label={`Conversation with ${slug}`}>
        {entries.map((entry, index) => (
          // Entries are only ever appended or the last one grown: their place is their identity.
          <Line key={index} entry={entry} />
        ))}
      </ol>
      <p class="note">
        {sessionId ? `session ${sessionId.slice(0, 8)}` : 'a new session'}
        {usage && ` · ${usage}`}
      </p>
      <form onSubmit={send}>
        <div class="field">
          <label for="chat-message">Message</label>
          <textarea id="chat-message" rows={2} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Answering…' : 'Send'}
        </button>
        {busy && (
          <button type="button" onClick={() => turn.current?.abort()}>
            Stop
          </button>
        )}
        <button type="button" onClick={reset}>
          New chat
        </button>
        <ErrorNote error={failure} />
      </form>
    </section>
  );
}
