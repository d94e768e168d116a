/**
 * The web UI's session store (SPEC A3): one-time codes that expire, idle expiry on an injected clock,
 * and bounds on how many sessions and codes it keeps (X8).
 */
import { describe, expect, it } from 'vitest';
import { createUiSessions } from '../../../src/http/perimeter/ui-sessions.js';

describe('UI sessions', () => {
  it('a code opens one session, once', () => {
    const sessions = createUiSessions();
    const { code } = sessions.issueCode();
    const session = sessions.redeem(code);
    expect(session).toMatchObject({ id: expect.stringMatching(/^[\w-]{43}$/), csrfToken: expect.any(String) });
    expect(session?.csrfToken).not.toBe(session?.id);
    expect(sessions.redeem(code)).toBeNull();
    expect(sessions.redeem('made-up')).toBeNull();
    expect(sessions.find(session?.id ?? '')).toMatchObject({ id: session?.id, csrfToken: session?.csrfToken });
  });

  it('a code is good for codeTtlMs (an hour by default), then refused', () => {
    let now = 1_000;
    const sessions = createUiSessions({ now: () => now });
    const late = sessions.issueCode();
    const inTime = sessions.issueCode();
    expect(late.expiresAt).toBe(1_000 + 60 * 60 * 1000);
    now += 60 * 60 * 1000 - 1;
    expect(sessions.redeem(inTime.code)).not.toBeNull();
    now += 1;
    expect(sessions.redeem(late.code)).toBeNull();
  });

  it('a session ends after idleMs without use; each use pushes the end back', () => {
    let now = 1_000;
    const sessions = createUiSessions({ now: () => now, idleMs: 100 });
    const { id } = sessions.open();
    now += 99;
    expect(sessions.find(id)?.expiresAt).toBe(now + 100);
    now += 99;
    expect(sessions.find(id)).not.toBeNull();
    now += 100;
    expect(sessions.find(id)).toBeNull();
    // Gone for good, not revived by a clock that goes back.
    now -= 100;
    expect(sessions.find(id)).toBeNull();
  });

  it('keeps at most maxSessions, ending the least recently used first', () => {
    const sessions = createUiSessions({ maxSessions: 2 });
    const a = sessions.open();
    const b = sessions.open();
    expect(sessions.find(a.id)).not.toBeNull();
    const c = sessions.open();
    expect(sessions.find(b.id)).toBeNull();
    expect(sessions.find(a.id)).not.toBeNull();
    expect(sessions.find(c.id)).not.toBeNull();
  });

  it('keeps at most maxCodes unspent codes, dropping the oldest', () => {
    const sessions = createUiSessions({ maxCodes: 2 });
    const { code: first } = sessions.issueCode();
    const { code: second } = sessions.issueCode();
    const { code: third } = sessions.issueCode();
    expect(sessions.redeem(first)).toBeNull();
    expect(sessions.redeem(second)).not.toBeNull();
    expect(sessions.redeem(third)).not.toBeNull();
  });

  it('sign-out ends a session', () => {
    const sessions = createUiSessions();
    const { id } = sessions.open();
    expect(sessions.end(id)).toBe(true);
    expect(sessions.find(id)).toBeNull();
    expect(sessions.end(id)).toBe(false);
  });
});
