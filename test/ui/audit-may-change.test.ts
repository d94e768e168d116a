/**
 * Which live events make a bot tab read its audit again (issue 18 item 4): state changes and
 * held or approved tools of the bot's own servers, and any event whose `bot` is the bot,
 * whatever its type (the bot events are typed by the service, not listed here).
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/ui/api-types.js';
import { auditMayChange } from '../../src/ui/audit-may-change.js';

const at = '2026-11-26T12:00:00.000Z';
const event = (fields: Record<string, unknown>) => ({ at, ...fields }) as unknown as LiveEvent;

describe('auditMayChange', () => {
  const servers = ['fs', 'memory'];

  it("follows state changes and quarantines of the bot's servers only", () => {
    for (const type of [
      'connecting',
      'connected',
      'reconnecting',
      'disabled',
      'removed',
      'tool_quarantined',
      'tool_approved',
    ])
      expect(auditMayChange(event({ type, server: 'fs' }), 'scout', servers), type).toBe(true);
    expect(auditMayChange(event({ type: 'disabled', server: 'other' }), 'scout', servers)).toBe(false);
    // Pings and catalog refreshes add no audit rows: no reading again for them.
    expect(auditMayChange(event({ type: 'health', server: 'fs' }), 'scout', servers)).toBe(false);
    expect(auditMayChange(event({ type: 'catalog_changed', server: 'fs' }), 'scout', servers)).toBe(false);
    expect(auditMayChange(event({ type: 'config_applied', server: null }), 'scout', servers)).toBe(false);
  });

  it('follows any event about the bot itself, a type it has never seen included, and no other bot', () => {
    for (const type of ['chat_message', 'workflow_started', 'workflow_finished', 'bot_updated', 'a_future_event'])
      expect(auditMayChange(event({ type, bot: 'scout' }), 'scout', servers), type).toBe(true);
    expect(auditMayChange(event({ type: 'chat_message', bot: 'other' }), 'scout', servers)).toBe(false);
    expect(auditMayChange(event({ type: 'chat_message', bot: 'other', server: 'elsewhere' }), 'scout', [])).toBe(false);
  });
});
