/**
 * The per-bot ring of activity behind `boternity://bots/{slug}/activity` (issue 18, ADR 023):
 * fed from a real event bus, at most N events per bot, newest last, within a byte bound, and
 * gone when the bot is deleted.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/bus/create-event-bus.js';
import type { BotEvent, HubEvent } from '../../../src/events/hub-event.js';
import { createBotActivity, MAX_EVENTS } from '../../../src/gateway/bots/bot-activity.js';

const log = pino({ level: 'silent' });
const said = (bot: string, excerpt: string): BotEvent => ({
  type: 'chat_message',
  server: null,
  bot,
  sessionId: 's1',
  role: 'user',
  tools: [],
  excerpt,
  chars: excerpt.length,
  truncated: false,
});
const read = (activity: ReturnType<typeof createBotActivity>, slug: string) => {
  const [content] = activity.read(slug).contents;
  return { content, body: JSON.parse(String((content as { text: string }).text)) };
};

describe('bot activity', () => {
  it('keeps the last N events of each bot, newest last, in the shape of the boternity.bots log data', () => {
    const bus = createEventBus<HubEvent>({ now: () => Date.parse('2026-07-28T10:00:00Z') });
    const activity = createBotActivity({ bus, sessions: { all: () => [] }, log });
    for (let i = 1; i <= MAX_EVENTS + 10; i++) bus.publish(said('alpha', `m${i}`));
    bus.publish(said('beta', 'other'));
    bus.publish({ type: 'server_connected', server: 'x' } as unknown as HubEvent);
    const { content, body } = read(activity, 'alpha');
    expect(content).toMatchObject({ uri: 'boternity://bots/alpha/activity', mimeType: 'application/json' });
    expect(body.bot).toBe('alpha');
    expect(body.events).toHaveLength(MAX_EVENTS);
    expect(body.events[0].excerpt).toBe('m11');
    expect(body.events.at(-1)).toEqual({
      event: 'chat_message',
      bot: 'alpha',
      sessionId: 's1',
      role: 'user',
      tools: [],
      excerpt: `m${MAX_EVENTS + 10}`,
      chars: 3,
      truncated: false,
      at: '2026-07-28T10:00:00.000Z',
    });
    expect(read(activity, 'beta').body.events.map((e: { excerpt: string }) => e.excerpt)).toEqual(['other']);
    activity.stop();
  });

  it('stays within its byte bound by leaving out the oldest, and drops a deleted bot', () => {
    const bus = createEventBus<HubEvent>();
    const activity = createBotActivity({ bus, sessions: { all: () => [] }, log, maxBytes: 1_000 });
    for (let i = 0; i < 20; i++) bus.publish(said('alpha', `${i}`.padEnd(150, '.')));
    const { content, body } = read(activity, 'alpha');
    expect(Buffer.byteLength(String((content as { text: string }).text))).toBeLessThan(1_100);
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events.length + body.omitted).toBe(20);
    expect(body.events.at(-1).excerpt.startsWith('19.')).toBe(true);
    bus.publish({ type: 'bot_deleted', server: null, bot: 'alpha' });
    expect(read(activity, 'alpha').body).toEqual({ bot: 'alpha', events: [], omitted: 0 });
    activity.stop();
  });
});
