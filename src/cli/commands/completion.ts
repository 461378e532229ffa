/**
 * `herdr completion bash|zsh|fish` prints a script for the shell, and the
 * hidden `herdr __complete -- WORD…` answers it (after `--`, so that a word
 * being typed as `--` reaches it): the words typed so far, the
 * last one being completed, give the next command names, the command's flags,
 * a flag's values, or live workspace, tab, pane ids and agent names from the
 * server (nothing when none runs).
 *
 * A flag's values are the ones its parser takes (`oneOf`, built on the
 * protocol's enums: `--source`, `--direction`, `--state`, `--format`, …); a
 * value the parser leaves to the server is known by the name it is given
 * (`<status>`: the agent statuses, `<kind>`: the kinds `agent.start` takes,
 * `<target>`: the running agents), from the protocol's own lists.
 */
import type { Command, Option } from 'commander';
import { HerdrClient } from '../../client/client.js';
import { AGENT_PROGRAMS } from '../../protocol/agent-kinds.js';
import { AGENT_NAMES, AGENT_STATUSES } from '../../protocol/enums.js';
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

type Live = 'workspace' | 'tab' | 'pane' | 'agent';
/** What a value may be: these words, or what the server has now. */
type Offer = readonly string[] | { live: Live };

async function candidates(program: Command, words: string[]): Promise<string[]> {
  const typed = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  let command = program;
  let socket: string | undefined;
  // Operands typed after the command's name; a flag that takes a value takes the next word.
  let operands = 0;
  // The flag whose value is being typed (the last word typed is that flag).
  let valueOf: Option | undefined;
  for (let i = 0; i < typed.length; i++) {
    const word = typed[i] ?? '';
    if (word.startsWith('-')) {
      const option = command.options.find((o: Option) => o.long === word || o.short === word);
      if (option && (option.required || option.optional)) {
        if (word === '--socket') socket = typed[i + 1];
        if (i + 1 === typed.length) valueOf = option;
        i++;
      }
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word && c.name() !== '__complete');
    if (sub && operands === 0) command = sub;
    else operands++;
  }
  if (valueOf) return offered(optionValues(valueOf, command), socket);
  if (current.startsWith('-')) return command.options.map((option: Option) => option.long ?? '').filter(Boolean);
  const subcommands = command.commands.map((c) => c.name()).filter((name) => name !== '__complete' && name !== 'help');
  if (subcommands.length > 0 && operands === 0) return subcommands;
  const first = command.registeredArguments[0]?.name();
  if (first === undefined || operands > 0) return [];
  if (first === 'id' || first === 'tab_id') {
    const group = command.parent?.name();
    return offered({ live: group === 'workspace' ? 'workspace' : group === 'tab' ? 'tab' : 'pane' }, socket);
  }
  return offered(named(first, command), socket);
}

/** A flag's values: the ones its parser takes, else those of the name its value is given. */
function optionValues(option: Option, command: Command): Offer | undefined {
  const choices = (option.parseArg as { choices?: readonly string[] } | undefined)?.choices ?? option.argChoices;
  if (choices) return choices;
  const name = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1];
  // `--pane <id>`, `--workspace <id>`, `--tab <id>`: the server's, of that kind.
  const kind = option.long?.slice(2);
  if (name === 'id' && (kind === 'pane' || kind === 'workspace' || kind === 'tab')) return { live: kind };
  return name === undefined ? undefined : named(name, command);
}

/** A value by what it is called, from the protocol's own lists, or the server's agents. */
function named(name: string, command: Command): Offer | undefined {
  switch (name) {
    case 'status':
      return AGENT_STATUSES;
    case 'kind':
      return Object.keys(AGENT_PROGRAMS);
    case 'target':
      return { live: 'agent' };
    // An event rule's --prompt/--queue agent is a running one; a report's --agent, the agent it is (a detector's name or a label).
    case 'agent':
      return command.name() === 'add' && command.parent?.name() === 'rules' ? { live: 'agent' } : AGENT_NAMES;
    default:
      return undefined;
  }
}

async function offered(offer: Offer | undefined, socketPath: string | undefined): Promise<string[]> {
  if (offer === undefined) return [];
  if ('live' in offer) return liveIds(offer.live, socketPath);
  return [...offer];
}

async function liveIds(kind: Live, socketPath: string | undefined): Promise<string[]> {
  const client = new HerdrClient({ ...(socketPath ? { socketPath } : {}), keepAlive: false });
  try {
    if (kind === 'workspace') return (await client.call('workspace.list', {})).workspaces.map((w) => w.workspace_id);
    if (kind === 'tab') return (await client.call('tab.list', {})).tabs.map((t) => t.tab_id);
    // An agent by its name, or one without a name by its pane.
    if (kind === 'agent') return (await client.call('agent.list', {})).agents.map((agent) => agent.name ?? agent.terminal_id);
    return (await client.call('pane.list', {})).panes.map((p) => p.pane_id);
  } catch {
    return [];
  }
}
