/**
 * `bnity completion bash|zsh`: bash sources the script and completes subcommands, options and
 * known values; the zsh script shares the same word function (checked under bash, which every
 * machine has) and registers itself with compdef.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BNITY, runBnity } from '../support/serve-process.js';

/** What bash's completion offers for the words typed so far (the last one is being completed). */
function completeInBash(script: string, typed: string[]): string[] {
  const words = typed.map((w) => `'${w}'`).join(' ');
  const program = `${script}
COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _bnity_completions; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('bnity completion', () => {
  it('bash: completes commands, subcommands, options and values', async () => {
    const { code, stdout } = await runBnity(['completion', 'bash']);
    expect(code).toBe(0);
    // The script loads as the help says: source <(bnity completion bash).
    execFileSync('bash', ['-c', `source <(node '${BNITY}' completion bash) && complete -p bnity`], {
      encoding: 'utf8',
    });
    expect(completeInBash(stdout, ['bnity', ''])).toEqual([
      'serve',
      'mcp',
      'bot',
      'config',
      'cluster',
      'ui',
      'token',
      'completion',
    ]);
    expect(completeInBash(stdout, ['bnity', 'mcp', 'te'])).toEqual(['test-tool']);
    expect(completeInBash(stdout, ['bnity', 'config', ''])).toEqual(['export', 'import']);
    expect(completeInBash(stdout, ['bnity', 'mcp', 'credential', 'r'])).toEqual(['remove']);
    expect(completeInBash(stdout, ['bnity', 'mcp', 'add', 'fs', '--pre'])).toEqual(['--preset']);
    expect(completeInBash(stdout, ['bnity', 'mcp', 'add', 'fs', '--preset', 'fi'])).toEqual(['filesystem']);
    expect(completeInBash(stdout, ['bnity', 'mcp', 'import', '--from', ''])).toEqual([
      'claude-desktop',
      'cursor',
      'vscode',
    ]);
    expect(completeInBash(stdout, ['bnity', 'token', 'list', '--j'])).toEqual(['--json']);
  });

  it('zsh: a compdef script whose word function offers the same candidates', async () => {
    const { code, stdout } = await runBnity(['completion', 'zsh']);
    expect(code).toBe(0);
    expect(stdout.startsWith('#compdef bnity\n')).toBe(true);
    expect(stdout).toContain('compdef _bnity bnity');
    const words = execFileSync(
      'bash',
      ['-c', `${stdout.replace('compdef _bnity bnity', '')}\n_bnity_words '' mcp budget`],
      { encoding: 'utf8' },
    );
    expect(words.trim()).toBe('reset');
  });

  it('refuses an unknown shell or none (exit 2, one line)', async () => {
    const fish = await runBnity(['completion', 'fish']);
    expect(fish.code).toBe(2);
    expect(fish.stderr).toBe('bnity: unknown shell "fish": bnity completion bash, or bnity completion zsh\n');
    const none = await runBnity(['completion']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("bnity: missing required argument 'shell'; run 'bnity completion --help'\n");
  });
});
