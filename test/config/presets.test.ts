// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPresets, presetNames, resolvePreset } from '../../src/config/presets.js';

describe('presets', () => {
  it.each([
    ['memory', 'server-memory'],
    ['filesystem', 'server-filesystem'],
    ['everything', 'server-everything'],
  ])('%s runs the installed package with this Node by absolute path', (name, pkg) => {
    const preset = resolvePreset(name);
    expect(preset).not.toBeNull();
    expect(preset?.command).toBe(process.execPath);
    const script = preset?.args[0] ?? '';
    expect(isAbsolute(script)).toBe(true);
    expect(script).toContain(pkg);
    expect(existsSync(script)).toBe(true);
    expect(preset?.args).toHaveLength(1);
    expect(preset?.description).not.toBe('');
  });

  it('lists the servers that are not installed with their usual launch command', () => {
    const byName = new Map(listPresets().map((preset) => [preset.name, preset]));
    for (const name of ['fetch', 'git', 'github', 'postgres', 'sequential-thinking', 'slack', 'brave-search']) {
      const preset = byName.get(name);
      expect(preset, name).toBeDefined();
      expect(preset?.installed).toBe(false);
      expect(['npx', 'uvx']).toContain(preset?.command);
    }
    expect(byName.get('github')).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_PERSONAL_ACCESS_TOKEN}' },
    });
    expect(byName.get('fetch')).toMatchObject({ command: 'uvx', args: ['mcp-server-fetch'] });
    expect(byName.get('slack')?.env).toEqual({
      SLACK_BOT_TOKEN: '${env:SLACK_BOT_TOKEN}',
      SLACK_TEAM_ID: '${env:SLACK_TEAM_ID}',
    });
    expect(byName.get('memory')?.installed).toBe(true);
  });

  it('lists every preset once, sorted, each with a description', () => {
    const names = listPresets().map((preset) => preset.name);
    expect(names).toEqual(presetNames());
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(listPresets().every((preset) => preset.description.length > 0)).toBe(true);
  });

  it('returns null for unknown names, including inherited object keys', () => {
    expect(resolvePreset('nope')).toBeNull();
    expect(resolvePreset('constructor')).toBeNull();
    expect(resolvePreset('__proto__')).toBeNull();
  });

  it('returns a fresh args array each time', () => {
    const first = resolvePreset('memory');
    first?.args.push('--mutated');
    expect(resolvePreset('memory')?.args).toHaveLength(1);
  });
});
