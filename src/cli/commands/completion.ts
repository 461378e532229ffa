/**
 * `herdr completion bash|zsh|fish` prints a script for the shell, and the
 * hidden `herdr __complete -- WORD…` answers it (after `--`, so that a word
 * being typed as `--` reaches it): the words typed so far, the
 * last one being completed, give the next command names, the command's flags,
 * or live workspace, tab and pane ids from the server (nothing when none runs).
 */
import type { Command, Option } from 'commander';
import { HerdrClient } from '../../client/client.js';
import { fail } from '../failure.js';

const SCRIPTS: Record<string, string> = {
  bash: `_herdr() {
  local IFS=$'\\n'
  COMPREPLY=($(compgen -W "$(herdr __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _herdr herdr
`,
  zsh: `#compdef herdr
_herdr() {
  local -a candidates
  candidates=("\${(@f)$(herdr __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _herdr herdr
`,
  fish: `complete -c herdr -f -a '(herdr __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
};

export function addCompletionCommands(program: Command): void {
  program
    .command('completion')
    .argument('<shell>', Object.keys(SCRIPTS).join(' | '))
    .description('print a shell completion script (e.g. `source <(herdr completion bash)`)')
    .action((shell: string) => {
      const script = SCRIPTS[shell];
      if (!script) fail(`no completion for ${shell} (bash, zsh or fish)`);
      process.stdout.write(script);
    });

  program
    .command('__complete', { hidden: true })
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[]) => {
      for (const candidate of await candidates(program, words)) process.stdout.write(`${candidate}\n`);
    });
}

async function candidates(program: Command, words: string[]): Promise<string[]> {
  const typed = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  let command = program;
  let socket: string | undefined;
  // Operands typed after the command's name; a flag that takes a value takes the next word.
  let operands = 0;
  for (let i = 0; i < typed.length; i++) {
    const word = typed[i] ?? '';
    if (word.startsWith('-')) {
      const option = command.options.find((o: Option) => o.long === word || o.short === word);
      if (option && (option.required || option.optional)) {
        if (word === '--socket') socket = typed[i + 1];
        i++;
      }
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word && c.name() !== '__complete');
    if (sub && operands === 0) command = sub;
    else operands++;
  }
  if (current.startsWith('-')) return command.options.map((option: Option) => option.long ?? '').filter(Boolean);
  const subcommands = command.commands.map((c) => c.name()).filter((name) => name !== '__complete' && name !== 'help');
  if (subcommands.length > 0 && operands === 0) return subcommands;
  const first = command.registeredArguments[0]?.name();
  if ((first !== 'id' && first !== 'tab_id') || operands > 0) return [];
  const group = command.parent?.name();
  return liveIds(group === 'workspace' ? 'workspace' : group === 'tab' ? 'tab' : 'pane', socket);
}

async function liveIds(kind: 'workspace' | 'tab' | 'pane', socketPath: string | undefined): Promise<string[]> {
  const client = new HerdrClient({ ...(socketPath ? { socketPath } : {}), keepAlive: false });
  try {
    if (kind === 'workspace') return (await client.call('workspace.list', {})).workspaces.map((w) => w.workspace_id);
    if (kind === 'tab') return (await client.call('tab.list', {})).tabs.map((t) => t.tab_id);
    return (await client.call('pane.list', {})).panes.map((p) => p.pane_id);
  } catch {
    return [];
  }
}
