// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPresetRequirements, listPresets, presetNames, resolvePreset } from '../../src/config/presets.js';

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
    for (const name of ['fetch', 'git', 'postgres', 'sqlite', 'time', 'sequential-thinking', 'slack', 'brave-search']) {
      const preset = byName.get(name);
      expect(preset, name).toBeDefined();
      expect(preset?.installed).toBe(false);
      expect(['npx', 'uvx']).toContain(preset?.command);
    }
    expect(byName.get('fetch')).toMatchObject({ command: 'uvx', args: ['mcp-server-fetch'] });
    expect(byName.get('slack')?.env).toEqual({
      SLACK_BOT_TOKEN: '${env:SLACK_BOT_TOKEN}',
      SLACK_TEAM_ID: '${env:SLACK_TEAM_ID}',
    });
    expect(byName.get('github')).toMatchObject({ url: 'https://api.githubcopilot.com/mcp/', type: 'http' });
    expect(byName.get('memory')?.installed).toBe(true);
  });

  it('covers the servers people add most (C7)', () => {
    const wanted = ['filesystem', 'memory', 'everything', 'fetch', 'git', 'github', 'postgres', 'sqlite'];
    wanted.push('sequential-thinking', 'time', 'slack', 'brave-search', 'playwright', 'puppeteer');
    expect(presetNames()).toEqual(expect.arrayContaining(wanted));
  });

  it('says what each preset needs', () => {
    const needs = Object.fromEntries(listPresets().map((preset) => [preset.name, preset.needs]));
    expect(needs.github).toEqual({ credential: 'github-token' });
    expect(needs.slack).toEqual({ env: ['SLACK_BOT_TOKEN', 'SLACK_TEAM_ID'] });
    expect(needs.filesystem?.args).toMatch(/directories/);
    expect(needs.memory).toEqual({});
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

describe('checkPresetRequirements', () => {
  it('refuses a missing credential in one line saying how to supply it', () => {
    expect(() => checkPresetRequirements('github', {})).toThrow(
      'preset github needs a credential: bnity mcp credential set github-token, then --credential-key github-token',
    );
    expect(() => checkPresetRequirements('github', { credentialKey: 'gh' })).not.toThrow();
  });

  it('refuses missing environment variables unless the entry or the environment has them', () => {
    expect(() => checkPresetRequirements('slack', { env: { SLACK_BOT_TOKEN: 'x' } }, {})).toThrow(
      /^preset slack needs the environment variable SLACK_TEAM_ID: add --env SLACK_TEAM_ID=… /,
    );
    expect(() => checkPresetRequirements('slack', {}, { SLACK_BOT_TOKEN: 'a', SLACK_TEAM_ID: 'b' })).not.toThrow();
  });

  it('refuses missing arguments', () => {
    expect(() => checkPresetRequirements('filesystem', { args: [] })).toThrow(
      /^preset filesystem needs arguments: one or more directories to serve/,
    );
    expect(() => checkPresetRequirements('filesystem', { args: ['/tmp'] })).not.toThrow();
    expect(() => checkPresetRequirements('memory', {})).not.toThrow();
  });

  it('refuses an unknown preset, inherited object keys included', () => {
    for (const name of ['nope', 'constructor']) {
      expect(() => checkPresetRequirements(name, {})).toThrow(/^unknown preset ".*" \(known: .*memory/);
    }
  });
});
