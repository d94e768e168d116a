/**
 * Chat with a bot (SPEC B4): a message goes to `POST /api/bots/{slug}/chat` and the answer
 * streams back as it is written. Each tool the bot calls is a collapsible block (seed 003):
 * open while the tool runs, closed once it answered, its arguments and result highlighted
 * JSON, a failure marked `error`. The log follows new text unless the reader scrolled up.
 * Enter sends, Shift+Enter starts a new line. The session id of the first answer is sent
 * with the next message, so the conversation goes on; New chat starts another; an earlier
 * session of the bot can be reopened (its history, tool calls included) and continued.
 * Stop interrupts the turn (the history records it). The answer is not announced word by
 * word as it streams (its bubble is `aria-busy` and the log is not a live region): a polite
 * status says it once, whole, when the turn ends.
 * @module
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { type Entry, fromHistory, type ToolEntry, withEvent } from '../chat-entries.js';
import { useLoad } from '../use-load.js';
import { ErrorNote } from './error-note.js';
import { JsonView, parseJsonText } from './json-view.js';

/** A tool call as a block: open while it runs, closed by default once it answered. */
function ToolBlock({ entry }: { entry: ToolEntry }) {
  const { result } = entry;
  const state = result ? (result.isError ? 'error' : 'answered') : 'running…';
  const json = result ? parseJsonText(result.text) : undefined;
  return (
    <li class={result?.isError ? 'chat-tool failed' : 'chat-tool'}>
      <details open={!result} data-tool-call={entry.name}>
        <summary>
          <code>{entry.name}</code>{' '}
          <span class="tool-state" data-tool-result={result ? entry.name : undefined}>
            {state}
          </span>
        </summary>
        {entry.arguments !== undefined && (
          <>
            <p class="note">arguments</p>
            <JsonView value={entry.arguments} raw={typeof entry.arguments === 'string'} />
          </>
        )}
        {result && (
          <>
            <p class="note">{result.isError ? 'result · error' : 'result'}</p>
            <JsonView value={json === undefined ? result.text : json} raw={json === undefined} />
          </>
        )}
      </details>
    </li>
  );
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
    case 'tool':
      return <ToolBlock entry={entry} />;
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
  // What a screen reader hears of a turn: its end, once (set again only by the next turn).
  const [announced, setAnnounced] = useState('');
  const turn = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const sessions = useLoad(() => api.chats(slug), [slug]);
  const log = useRef<HTMLOListElement>(null);
  // The log follows new content unless the reader scrolled up from the end of what was there
  // (read from where the log is now, not from a scroll event: that comes a frame later, and
  // content arriving within that frame pulled a reader back down). Zero: follow, whatever
  // the reader did (a message sent, a session reopened).
  const drawnHeight = useRef(0);
  useLayoutEffect(() => {
    const element = log.current;
    if (!element) return;
    const reading = element.scrollTop + element.clientHeight < drawnHeight.current - 4;
    if (!reading) element.scrollTop = element.scrollHeight;
    drawnHeight.current = element.scrollHeight;
  }, [entries]);

  const send = async (event: Event) => {
    event.preventDefault();
    const text = message.trim();
    if (!text || busy) return;
    setMessage('');
    setFailure(null);
    setAnnounced('');
    drawnHeight.current = 0;
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
          setAnnounced(
            streamed.type === 'final' ? `Answer complete: ${streamed.text}` : `Answer failed: ${streamed.message}`,
          );
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) setFailure((error as Error).message);
    } finally {
      turn.current = null;
      setBusy(false);
      sessions.reload();
      onTurnEnd?.();
    }
  };
  const reset = () => {
    turn.current?.abort();
    setEntries([]);
    setSessionId(null);
    setUsage(null);
  };
  const reopen = async (id: string) => {
    turn.current?.abort();
    setFailure(null);
    try {
      const { chat } = await api.chatHistory(slug, id);
      drawnHeight.current = 0;
      setEntries(fromHistory(chat.messages));
      setSessionId(chat.sessionId);
      setUsage(`${chat.usage.totalTokens} tokens in this session`);
    } catch (error) {
      setFailure((error as Error).message);
    }
  };
  const earlier = sessions.data?.sessions ?? [];
  return (
    <section aria-labelledby="chat-title" class="chat">
      <h2 id="chat-title">Chat</h2>
      {earlier.length > 0 && (
        <details class="chat-sessions">
          <summary>Earlier chats ({earlier.length})</summary>
          <ul>
            {earlier.map((s) => (
              <li key={s.sessionId}>
                <button
                  type="button"
                  class="link"
                  aria-current={s.sessionId === sessionId ? 'true' : undefined}
                  onClick={() => reopen(s.sessionId)}
                >
                  {s.title}
                </button>{' '}
                <span class="note">{new Date(s.updatedAt).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <ol ref={log} class="chat-log" aria-label={`Conversation with ${slug}`}>
        {entries.map((entry, index) => (
          // Entries are only ever appended or one of them grown: their place is their identity.
          <Line key={index} entry={entry} />
        ))}
      </ol>
      <p class="visually-hidden" role="status" data-chat-announce>
        {announced}
      </p>
      <p class="note">
        {sessionId ? `session ${sessionId.slice(0, 8)}` : 'a new session'}
        {usage && ` · ${usage}`}
      </p>
      <form onSubmit={send}>
        <div class="field">
          <label for="chat-message">Message</label>
          <textarea
            id="chat-message"
            rows={2}
            value={message}
            aria-describedby="chat-keys"
            onInput={(e) => setMessage(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter sends; Shift+Enter (and Enter while an input method composes) is a new line.
              if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }}
          />
          <span id="chat-keys" class="note">
            Enter sends, Shift+Enter starts a new line
          </span>
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
