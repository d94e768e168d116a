/** The excerpt a `chat_message` event carries (issue 18): bounded, one line, no known secret. */
import { describe, expect, it } from 'vitest';
import { chatExcerpt, EXCERPT_CHARS } from '../../src/bots/chat-excerpt.js';

const SECRET = 'sk-abcdefghijklmnop';

describe('chatExcerpt', () => {
  it('keeps a short message whole, on one line', () => {
    expect(chatExcerpt('  hello\n\tthere  ', new Set())).toEqual({ excerpt: 'hello there', truncated: false });
  });

  it('cuts a long message to the bound, marked', () => {
    const { excerpt, truncated } = chatExcerpt('x'.repeat(5_000), new Set());
    expect(truncated).toBe(true);
    expect(excerpt).toHaveLength(EXCERPT_CHARS);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('masks a secret the log knows, also one the cut would split', () => {
    const secrets = new Set([SECRET]);
    expect(chatExcerpt(`key: ${SECRET}`, secrets).excerpt).toBe('key: [redacted]');
    // The secret starts 5 characters before the cut: without masking first, its start would show.
    const straddling = `${'a'.repeat(EXCERPT_CHARS - 6)} ${SECRET} tail`;
    const { excerpt } = chatExcerpt(straddling, secrets);
    expect(excerpt).not.toContain(SECRET.slice(0, 4));
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS);
  });
});
