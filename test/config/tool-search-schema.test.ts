/** The `toolSearch` section and a bot's `toolSearch` (issue 24): defaults, and each bad input as one line naming the field. */
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

describe('toolSearch config', () => {
  it('defaults to off, 20,000 tokens, nothing always loaded', () => {
    const config = parseConfig({ mcpServers: {} }, FILE, {});
    expect(config.toolSearch).toEqual({
      mode: 'off',
      autoThresholdTokens: 20_000,
      alwaysLoad: {},
      defaultResults: 10,
      maxResults: 50,
    });
  });

  it('takes a bot mode beside the gateway section', () => {
    const config = parseConfig({ toolSearch: { mode: 'auto' }, bots: { b: { toolSearch: 'on' } } }, FILE, {});
    expect(config.toolSearch.mode).toBe('auto');
    expect(config.bots.b?.toolSearch).toBe('on');
  });

  it.each([
    [{ toolSearch: { mode: 'sometimes' } }, 'toolSearch.mode'],
    [{ toolSearch: 'on' }, 'toolSearch'],
    [{ toolSearch: { autoThresholdTokens: 0 } }, 'toolSearch.autoThresholdTokens'],
    [{ toolSearch: { alwaysLoad: { github: 'create_issue' } } }, 'toolSearch.alwaysLoad.github'],
    [{ toolSearch: { maxResult: 5 } }, 'maxResult'],
    [{ bots: { b: { toolSearch: 'yes' } } }, 'bots.b.toolSearch'],
  ])('%j is refused in one line naming %s', (raw, field) => {
    const message = messageOf(raw);
    const lines = message.split('\n');
    // The file line, then one line for the one issue.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(field);
  });
});
