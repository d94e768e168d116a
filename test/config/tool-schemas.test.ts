/** The tool sections (issue 24): `toolSearch`, a bot's `toolSearch`, `timeouts`, a server's `timeouts` and `toolOverrides`; each bad input is one line naming the field. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { ConfigError } from '../../src/errors.js';

const FILE = '/x/boternity.json';

function messageOf(raw: unknown): string {
  try {
    parseConfig(raw, FILE, {});
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected parseConfig to throw');
}

describe('tool config sections', () => {
  it('defaults to off, 20,000 tokens, nothing always loaded', () => {
    const config = parseConfig({ mcpServers: {} }, FILE, {});
    expect(config.gateway.toolSearch).toEqual({
      mode: 'off',
      autoThresholdTokens: 20_000,
      tokens: {},
      alwaysLoad: {},
      defaultResults: 10,
      maxResults: 50,
    });
  });

  it('takes the gateway’s as a mode alone or an object, and a bot mode', () => {
    const config = parseConfig({ gateway: { toolSearch: 'auto' }, bots: { b: { toolSearch: 'on' } } }, FILE, {});
    expect(config.gateway.toolSearch).toMatchObject({ mode: 'auto', autoThresholdTokens: 20_000 });
    expect(config.bots.b?.toolSearch).toBe('on');
    const object = parseConfig({ gateway: { toolSearch: { mode: 'on', maxResults: 20 } } }, FILE, {});
    expect(object.gateway.toolSearch).toMatchObject({ mode: 'on', maxResults: 20, defaultResults: 10 });
  });

  it.each([
    [{ gateway: { toolSearch: { mode: 'sometimes' } } }, 'gateway.toolSearch.mode'],
    [{ gateway: { toolSearch: 'sometimes' } }, 'gateway.toolSearch'],
    [{ gateway: { toolSearch: 7 } }, 'gateway.toolSearch'],
    [{ gateway: { toolSearch: { autoThresholdTokens: 0 } } }, 'gateway.toolSearch.autoThresholdTokens'],
    [{ gateway: { toolSearch: { alwaysLoad: { github: 'create_issue' } } } }, 'gateway.toolSearch.alwaysLoad.github'],
    [{ gateway: { toolSearch: { maxResult: 5 } } }, 'maxResult'],
    [{ gateway: { toolSearch: { tokens: { admin: 'always' } } } }, 'gateway.toolSearch.tokens.admin'],
    [{ bots: { b: { toolSearch: 'yes' } } }, 'bots.b.toolSearch'],
    [{ timeouts: { callMs: 0 } }, 'timeouts.callMs'],
    [{ mcpServers: { s: { command: 'x', timeouts: { perTool: { slow: -5 } } } } }, 'timeouts.perTool.slow'],
    [{ mcpServers: { s: { command: 'x', timeouts: { callMS: 5 } } } }, 'callMS'],
    [{ mcpServers: { s: { command: 'x', toolOverrides: { t: { name: 'has space' } } } } }, 'toolOverrides.t.name'],
    [{ mcpServers: { s: { command: 'x', toolOverrides: { t: { hidden: 'yes' } } } } }, 'toolOverrides.t.hidden'],
  ])('%j is refused in one line naming %s', (raw, field) => {
    const message = messageOf(raw);
    const lines = message.split('\n');
    // The file line, then one line for the one issue.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(field);
  });
});
