/**
 * `bnity completion bash|zsh`: a completion script generated from the command tree, so it
 * always knows every subcommand and option. Values it knows are completed too: presets,
 * import sources, transports, shells.
 * @module
 */
import type { Command, Option } from 'commander';
import { presetNames } from '../config/presets.js';
import { UsageError } from '../errors.js';

/** One command path (`mcp add`), what may follow it, and its options. */
type Node = { path: string; subcommands: string[]; options: string[] };

/** Values completed after an option, whatever the command. */
const VALUES: Record<string, () => string[]> = {
  '--preset': presetNames,
  '--from': () => ['claude-desktop', 'cursor', 'vscode'],
  '--transport': () => ['http', 'sse'],
};

/** Print the script for `shell`; resolves with the exit code. */
export async function completionCommand(shell: string, program: Command): Promise<number> {
  const nodes = walk(program, '');
  if (shell === 'bash') process.stdout.write(bashScript(nodes));
  else if (shell === 'zsh') process.stdout.write(zshScript(nodes));
  else throw new UsageError(`unknown shell "${shell}": bnity completion bash, or bnity completion zsh`);
  return 0;
}

function walk(cmd: Command, path: string): Node[] {
  const options = (cmd.options as readonly Option[]).flatMap((o) => [o.long, o.short].filter((f) => f !== undefined));
  const subcommands = cmd.commands.map((c) => c.name());
  const here: Node = { path, subcommands, options: [...options, '--help'] };
  return [here, ...cmd.commands.flatMap((c) => walk(c, path ? `${path} ${c.name()}` : c.name()))];
}

/** The `case` arms mapping a command path to the words offered there. */
function arms(nodes: readonly Node[], pick: (n: Node) => string[]): string {
  return nodes.map((n) => `      '${n.path}') _bw='${pick(n).join(' ')}' ;;`).join('\n');
}

function valueArms(): string {
  return Object.entries(VALUES)
    .map(([flag, values]) => `    ${flag}) _bw='${values().join(' ')}' ;;`)
    .join('\n');
}

/**
 * The function bash and zsh share (plain POSIX shell, no names zsh reserves): given the word
 * being completed and the words before it, print the candidates.
 */
function wordsFunction(nodes: readonly Node[]): string {
  const paths = nodes.map((n) => `'${n.path}'`).join('|');
  return `_bnity_words() {
  local _cur="$1" _bp='' _bn _bprev='' _bw='' _a
  shift
  for _a in "$@"; do
    _bn="\${_bp:+$_bp }$_a"
    case "$_bn" in
      ${paths}) _bp="$_bn" ;;
    esac
    _bprev="$_a"
  done
  case "$_bprev" in
${valueArms()}
  esac
  if [ -z "$_bw" ]; then
    case "$_cur" in
      -*) case "$_bp" in
${arms(nodes, (n) => n.options)}
          esac ;;
      *) case "$_bp" in
${arms(nodes, (n) => n.subcommands)}
         esac ;;
    esac
  fi
  echo "$_bw"
}
`;
}

function bashScript(nodes: readonly Node[]): string {
  return `# bnity completion for bash. Load it with: source <(bnity completion bash)
${wordsFunction(nodes)}
_bnity_completions() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=( $(compgen -W "$(_bnity_words "$cur" "\${COMP_WORDS[@]:1:COMP_CWORD-1}")" -- "$cur") )
}
complete -F _bnity_completions bnity
`;
}

function zshScript(nodes: readonly Node[]): string {
  return `#compdef bnity
# bnity completion for zsh. Load it with: source <(bnity completion zsh)
${wordsFunction(nodes)}
_bnity() {
  compadd -- \${=$(_bnity_words "\${words[CURRENT]}" "\${(@)words[2,CURRENT-1]}")}
}
compdef _bnity bnity
`;
}
