/**
 * The chat as the page shows it (seed 003): a tool call and its result one entry, built the
 * same from a turn's events as they stream and from the stored history of the session.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatHistory } from '../../src/ui/api-types.js';
import { type Entry, fromHistory, withEvent } from '../../src/ui/chat-entries.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const stream = (events: ChatEvent[], start: Entry[] = []) => events.reduce<Entry[]>(withEvent, start);

/** The conversation both the stream and the history below must give. */
const CONVERSATION = [
  { kind: 'user', text: 'list' },
  { kind: 'assistant', text: 'Let me look.', done: true },
  {
    kind: 'tool',
    id: 'c1',
    name: 'fs__list',
    arguments: { path: '/tmp' },
    result: { text: '[FILE] a', isError: false },
  },
  {
    kind: 'tool',
    id: 'c2',
    name: 'fs__ghost',
    arguments: 'not json',
    result: { text: 'Error: no', isError: true },
  },
  { kind: 'assistant', text: 'Done.', done: true },
];

describe('chat entries', () => {
  it('streams text, closes it at a tool call, and joins the call and its result in one entry', () => {
    const entries = stream(
      [
        { type: 'text', delta: 'Let me ' },
        { type: 'text', delta: 'look.' },
        { type: 'tool_call', id: 'c1', name: 'fs__list', arguments: { path: '/tmp' } },
        { type: 'tool_call', id: 'c2', name: 'fs__ghost', arguments: 'not json' },
        { type: 'tool_result', id: 'c1', name: 'fs__list', isError: false, text: '[FILE] a', result: null },
        { type: 'tool_result', id: 'c2', name: 'fs__ghost', isError: true, text: 'Error: no', result: null },
        { type: 'text', delta: 'Done.' },
        { type: 'final', sessionId: 's', text: 'Done.', usage, rounds: 2 },
      ],
      [{ kind: 'user', text: 'list' }],
    );
    expect(entries).toEqual(CONVERSATION);
  });

  it('rebuilds the same conversation from the history, a failure included', () => {
    const base = {
      toolCalls: null,
      toolCallId: null,
      toolName: null,
      isError: false,
      data: null,
      promptTokens: null,
      completionTokens: null,
      createdAt: '',
    };
    const messages: ChatHistory['messages'] = [
      { ...base, id: 1, role: 'user', content: 'list' },
      {
        ...base,
        id: 2,
        role: 'assistant',
        content: 'Let me look.',
        toolCalls: [
          { id: 'c1', name: 'fs__list', arguments: '{"path":"/tmp"}' },
          { id: 'c2', name: 'fs__ghost', arguments: 'not json' },
        ],
      },
      { ...base, id: 3, role: 'tool', content: '[FILE] a', toolCallId: 'c1', toolName: 'fs__list' },
      { ...base, id: 4, role: 'tool', content: 'Error: no', toolCallId: 'c2', toolName: 'fs__ghost', isError: true },
      { ...base, id: 5, role: 'assistant', content: 'Done.' },
      { ...base, id: 6, role: 'user', content: 'again' },
      { ...base, id: 7, role: 'error', content: 'the chat was interrupted before it finished', isError: true },
    ];
    expect(fromHistory(messages)).toEqual([
      ...CONVERSATION,
      { kind: 'user', text: 'again' },
      { kind: 'error', text: 'the chat was interrupted before it finished' },
    ]);
  });
});
