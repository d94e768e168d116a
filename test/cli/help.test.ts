/**
 * `bnity --help` and `bnity mcp --help` list every command, nested groups included; a group
 * run without its subcommand prints its help on stderr and is a usage error (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { runBnity } from '../support/serve-process.js';

const MCP = [
  'list',
  'status [name]',
  'add <name> [command...]',
  'remove <name>',
  'tools <name>',
  'connect <name>',
  'disconnect <name>',
  'test-tool <server> <tool>',
  'presets',
  'logs <name>',
  'events',
  'import',
  'serve',
  'approve <server> <tool>',
  'quarantines',
  'budget reset <server>',
  'credential set <name>',
  'credential list',
  'credential remove <name>',
];

describe('bnity --help', () => {
  it('lists every command at the top and in the mcp group, and exits 0', async () => {
    const [top, mcp] = await Promise.all([runBnity(['--help']), runBnity(['mcp', '--help'])]);
    expect(top.code).toBe(0);
    expect(mcp.code).toBe(0);
    for (const command of ['serve', 'token create', 'token list', 'token revoke <id>', 'completion <shell>'])
      expect(top.stdout).toMatch(new RegExp(`^  bnity ${command.replace(/[[\].]/g, '\\$&')}\\s`, 'm'));
    for (const command of MCP) {
      const pattern = command.replace(/[[\].]/g, '\\$&');
      expect(top.stdout).toMatch(new RegExp(`^  bnity mcp ${pattern}\\s`, 'm'));
      expect(mcp.stdout).toMatch(new RegExp(`^  mcp ${pattern}\\s`, 'm'));
    }
  });

  it('says how --arg values are read, in test-tool --help', async () => {
    const help = await runBnity(['mcp', 'test-tool', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'V is read as JSON when it parses (5, true, "x", [1]), else as text',
    );
  });

  it('prints the help on stderr with exit 2 for a group without its subcommand', async () => {
    const [bare, mcp] = await Promise.all([runBnity([]), runBnity(['mcp'])]);
    for (const r of [bare, mcp]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Usage: bnity/);
    }
  });
});
