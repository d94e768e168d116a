/**
 * A bot's allow/deny switches (SPEC B2, G3): whether a tool is served, and the edit that
 * switches it without hiding the server's other tools.
 */
import { describe, expect, it } from 'vitest';
import type { BotView } from '../../src/ui/api-types.js';
import { isToolAllowed, permissionChange } from '../../src/ui/bot-permissions.js';

const view = (toolPermissions: BotView['toolPermissions']): BotView => ({
  additionalServers: ['fs'],
  removedServers: ['web'],
  toolPermissions,
});

describe('bot permissions', () => {
  it('denied always wins; an allowed list is the only tools served', () => {
    expect(isToolAllowed(null, 'fs', 'read')).toBe(true);
    expect(isToolAllowed(view({}), 'fs', 'read')).toBe(true);
    expect(isToolAllowed(view({ fs: { denied: ['read'] } }), 'fs', 'read')).toBe(false);
    expect(isToolAllowed(view({ fs: { allowed: ['list'] } }), 'fs', 'read')).toBe(false);
    expect(isToolAllowed(view({ fs: { allowed: ['read'], denied: ['read'] } }), 'fs', 'read')).toBe(false);
    expect(isToolAllowed(view({ fs: { denied: ['read'] } }), 'other', 'read')).toBe(true);
  });

  it('switching off denies the tool', () => {
    expect(permissionChange(null, 'fs', 'read', false)).toEqual({ kind: 'patch', edit: { deny: ['read'] } });
  });

  it('switching on allows it where an allowed list exists', () => {
    expect(permissionChange(view({ fs: { allowed: ['list'], denied: ['read'] } }), 'fs', 'read', true)).toEqual({
      kind: 'patch',
      edit: { allow: ['read'] },
    });
  });

  it('switching on elsewhere takes it out of denied, keeping the rest of the view', () => {
    const before = view({ fs: { denied: ['read', 'write'] }, git: { denied: ['push'] } });
    expect(permissionChange(before, 'fs', 'read', true)).toEqual({
      kind: 'replace',
      view: {
        additionalServers: ['fs'],
        removedServers: ['web'],
        toolPermissions: { fs: { denied: ['write'] }, git: { denied: ['push'] } },
      },
    });
    // The last denied tool of a server drops its lists.
    expect(permissionChange(view({ fs: { denied: ['read'] } }), 'fs', 'read', true)).toEqual({
      kind: 'replace',
      view: { additionalServers: ['fs'], removedServers: ['web'], toolPermissions: {} },
    });
    expect(permissionChange(null, 'fs', 'read', true)).toEqual({
      kind: 'replace',
      view: { additionalServers: [], removedServers: [], toolPermissions: {} },
    });
  });
});
