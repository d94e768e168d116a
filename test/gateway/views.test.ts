import { describe, expect, it } from 'vitest';
import { type AppConfig, BotConfigSchema } from '../../src/config/schema.js';
import { UnknownServerError } from '../../src/errors.js';
import { effectiveServers } from '../../src/gateway/views/effective-servers.js';
import { isToolAllowed } from '../../src/gateway/views/tool-filter.js';
import { stdioConfig } from '../support/server-config.js';

function config(servers: string[], bots: Record<string, object> = {}): Pick<AppConfig, 'mcpServers' | 'bots'> {
  return {
    mcpServers: Object.fromEntries(servers.map((name) => [name, stdioConfig({ command: 'node' })])),
    bots: Object.fromEntries(Object.entries(bots).map(([slug, bot]) => [slug, BotConfigSchema.parse(bot)])),
  };
}

describe('effectiveServers', () => {
  const app = config(['alpha', 'beta', 'gamma', 'delta'], {
    plain: {},
    support: { removedServers: ['beta', 'nowhere'], additionalServers: ['delta', 'ghost'] },
    research: { additionalServers: ['gamma'] },
    both: { additionalServers: ['gamma'], removedServers: ['gamma'] },
  });

  it('all: every configured server in config order', () => {
    expect(effectiveServers(app, { kind: 'all' })).toEqual(['alpha', 'beta', 'gamma', 'delta']);
  });

  it('server: just that one', () => {
    expect(effectiveServers(app, { kind: 'server', server: 'gamma' })).toEqual(['gamma']);
  });

  it('server: an unknown name throws UnknownServerError', () => {
    expect(() => effectiveServers(app, { kind: 'server', server: 'nope' })).toThrow(UnknownServerError);
    expect(() => effectiveServers(app, { kind: 'server', server: 'toString' })).toThrow(UnknownServerError);
  });

  it('bot: servers some bot adds are opt-in and left out of other bots', () => {
    expect(effectiveServers(app, { kind: 'bot', slug: 'plain' })).toEqual(['alpha', 'beta']);
  });

  it('bot: removes removedServers and adds its own additionalServers, ignoring unknown names', () => {
    expect(effectiveServers(app, { kind: 'bot', slug: 'support' })).toEqual(['alpha', 'delta']);
    expect(effectiveServers(app, { kind: 'bot', slug: 'research' })).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('bot: a server both added and removed is removed', () => {
    expect(effectiveServers(app, { kind: 'bot', slug: 'both' })).toEqual(['alpha', 'beta']);
  });

  it('bot: a slug with no config entry (a registry bot) gets the default view: every server not opt-in', () => {
    const defaults = effectiveServers(app, { kind: 'bot', slug: 'ghost' });
    expect(defaults).toEqual(['alpha', 'beta']);
    expect(effectiveServers(app, { kind: 'bot', slug: 'constructor' })).toEqual(defaults);
  });
});

describe('isToolAllowed', () => {
  const cases: [string, Parameters<typeof isToolAllowed>[1], Parameters<typeof isToolAllowed>[2], boolean][] = [
    ['no lists', {}, undefined, true],
    ['server allow list, listed', { allowedTools: ['echo'] }, undefined, true],
    ['server allow list, not listed', { allowedTools: ['add'] }, undefined, false],
    ['server empty allow list', { allowedTools: [] }, undefined, false],
    ['server deny list', { deniedTools: ['echo'] }, undefined, false],
    ['server deny wins over server allow', { allowedTools: ['echo'], deniedTools: ['echo'] }, undefined, false],
    ['bot allow list, listed', {}, { allowed: ['echo'] }, true],
    ['bot allow list, not listed', {}, { allowed: ['add'] }, false],
    ['bot deny list', {}, { denied: ['echo'] }, false],
    ['bot deny wins over bot allow', {}, { allowed: ['echo'], denied: ['echo'] }, false],
    ['bot allow cannot widen server allow', { allowedTools: ['add'] }, { allowed: ['echo'] }, false],
    ['bot allow cannot lift server deny', { deniedTools: ['echo'] }, { allowed: ['echo'] }, false],
    ['bot deny narrows server allow', { allowedTools: ['echo'] }, { denied: ['echo'] }, false],
    ['both allow lists list it', { allowedTools: ['echo', 'add'] }, { allowed: ['echo'] }, true],
    ['other tools denied only', { deniedTools: ['add'] }, { denied: ['sum'] }, true],
  ];
  it.each(cases)('%s', (_label, server, permission, expected) => {
    expect(isToolAllowed('echo', server, permission)).toBe(expected);
  });
});
