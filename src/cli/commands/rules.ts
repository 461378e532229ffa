/**
 * `herdr rules` (docs/protocol.md §13.8): add a rule from flags (one `--on-…`/`--every`
 * for what sets it off, one of `--start`/`--prompt`/`--queue` for what it does), list
 * them, remove one. `--spec` takes the whole rule as `rules.add` does, as JSON.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { MethodInput } from '../../protocol/methods.js';

type RuleTrigger = MethodInput<'rules.add'>['trigger'];
type RuleAction = MethodInput<'rules.add'>['action'];
import { usageError } from '../failure.js';
import { type SocketOption, given, printJson, send } from '../output.js';
import { rulesTable } from '../rules/rule-text.js';
import { oneOf, positiveInt } from './parse.js';

interface AddFlags extends SocketOption {
  name?: string;
  onAgent?: 'idle' | 'working' | 'blocked' | 'done';
  onCommand?: 'any' | 'failed' | 'succeeded' | number;
  onOutput?: string;
  every?: string;
  agent?: string;
  ofKind?: string;
  pane?: string;
  workspace?: string;
  substring?: boolean;
  lines?: number;
  timezone?: string;
  start?: string;
  prompt?: string;
  queue?: string;
  text?: string;
  kind?: string;
  cwd?: string;
  max?: number;
  per?: number;
  loopGuard?: number;
  spec?: string;
  json?: boolean;
}

function exitFilter(value: string): 'any' | 'failed' | 'succeeded' | number {
  if (value === 'any' || value === 'failed' || value === 'succeeded') return value;
  if (/^-?\d+$/.test(value)) return Number(value);
  throw new InvalidArgumentError(`expected any, failed, succeeded or an exit code, got ${value}`);
}

function triggerOf(flags: AddFlags): RuleTrigger {
  const given_ = [flags.onAgent, flags.onCommand, flags.onOutput, flags.every].filter((value) => value !== undefined);
  if (given_.length !== 1) usageError('give exactly one of --on-agent, --on-command, --on-output and --every');
  if (flags.onAgent !== undefined) {
    return { type: 'agent_status', status: flags.onAgent, ...given('agent', flags.agent), ...given('kind', flags.ofKind), ...given('workspace_id', flags.workspace) };
  }
  if (flags.onCommand !== undefined) return { type: 'command_finished', exit: flags.onCommand, ...given('pane_id', flags.pane), ...given('workspace_id', flags.workspace) };
  if (flags.onOutput !== undefined) {
    return {
      type: 'output_matched',
      match: { type: flags.substring ? 'substring' : 'regex', value: flags.onOutput },
      ...given('pane_id', flags.pane),
      ...given('agent', flags.agent),
      ...given('lines', flags.lines),
    };
  }
  return { type: 'schedule', cron: flags.every as string, ...given('timezone', flags.timezone) };
}

function actionOf(flags: AddFlags): RuleAction {
  const given_ = [flags.start, flags.prompt, flags.queue].filter((value) => value !== undefined);
  if (given_.length !== 1) usageError('give exactly one of --start, --prompt and --queue');
  if (flags.start !== undefined) return { type: 'start', agent: flags.start, ...given('kind', flags.kind), ...given('cwd', flags.cwd) };
  if (flags.text === undefined) usageError('--prompt and --queue need --text');
  return { type: flags.prompt !== undefined ? 'prompt' : 'queue', agent: (flags.prompt ?? flags.queue) as string, text: flags.text };
}

function jsonObject(value: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object');
  return value;
}

/** `--spec`: the rule as JSON, checked by the server like any rules.add (only the socket flags beside it). */
function specOf(flags: AddFlags): MethodInput<'rules.add'> {
  const { socket: _socket, host: _host, sshCommand: _ssh, json: _json, spec, ...rest } = flags;
  if (Object.values(rest).some((value) => value !== undefined)) usageError('--spec is the whole rule: give no other rule flags with it');
  return JSON.parse(spec as string) as MethodInput<'rules.add'>;
}

export function addRuleCommands(program: Command): void {
  const rules = program.command('rules').description('event rules: what the server does by itself on agent states, exit codes, output and schedules');

  rules
    .command('add')
    .description('add a rule: one --on-…/--every for when, one of --start/--prompt/--queue for what (or the whole rule as JSON: --spec)')
    .option('--name <name>', 'a name to list and remove it by')
    .option('--on-agent <status>', 'when an agent turns idle, working, blocked or done', oneOf('idle', 'working', 'blocked', 'done'))
    .option('--on-command <exit>', 'when a command finishes (shells that mark commands, OSC 133): any, failed, succeeded or an exit code', exitFilter)
    .option('--on-output <regex>', 'when the pane\'s last lines come to match (--pane or --agent)')
    .option('--every <cron>', 'on a cron schedule: 5 fields, or 6 with seconds first')
    .option('--agent <target>', 'only this agent (--on-agent), or the agent whose pane to watch (--on-output)')
    .option('--of-kind <kind>', 'only agents of this kind (--on-agent)')
    .option('--pane <id>', 'only this pane (--on-command), or the pane to watch (--on-output)')
    .option('--workspace <id>', 'only this workspace (--on-agent, --on-command)')
    .option('--substring', '--on-output is plain text, not a regex')
    .option('--lines <n>', 'how many last lines --on-output looks at (default 50)', positiveInt)
    .option('--timezone <zone>', 'the IANA zone of --every (default the server\'s)')
    .option('--start <name>', 'start an agent under this name (nothing while one of that name runs)')
    .option('--kind <kind>', 'the kind --start starts (claude, codex, …)')
    .option('--cwd <dir>', 'where --start starts it')
    .option('--prompt <agent>', 'prompt this agent if it is idle or done then (else skipped)')
    .option('--queue <agent>', 'prompt this agent now or when it is next idle')
    .option('--text <text>', 'the prompt; {{pane_id}}, {{agent}}, {{status}}, {{exit_code}}, {{matched_line}} are filled in')
    .option('--max <n>', 'at most this many firings…', positiveInt)
    .option('--per <seconds>', '…every this many seconds (default 60 a minute)', positiveInt)
    .option('--loop-guard <n>', 'at most this many firings a minute set off by its own actions (default 5)', positiveInt)
    .option('--spec <json>', 'the whole rule as rules.add takes it: {"trigger": {…}, "action": {…}, …} (no other rule flags)', jsonObject)
    .option('--json', 'print the rule as JSON')
    .option('--socket <path>', 'socket path')
    .action((flags: AddFlags) => {
      if ((flags.max === undefined) !== (flags.per === undefined)) usageError('--max and --per go together');
      const params: MethodInput<'rules.add'> = flags.spec !== undefined ? specOf(flags) : {
        ...given('name', flags.name),
        trigger: triggerOf(flags),
        action: actionOf(flags),
        ...(flags.max !== undefined && flags.per !== undefined ? { limit: { max: flags.max, per_s: flags.per } } : {}),
        ...given('loop_guard', flags.loopGuard),
      };
      return send('cli:rules:add', 'rules.add', params, flags, ({ result }) => (flags.json ? printJson(result.rule) : process.stdout.write(rulesTable([result.rule]).split('\n').slice(1).join('\n'))));
    });

  rules
    .command('list')
    .description('every rule: when, what, and how often it fired, was skipped or failed')
    .option('--json', 'one JSON line per rule')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption & { json?: boolean }) =>
      send('cli:rules:list', 'rules.list', {}, flags, ({ result }) => (flags.json ? result.rules.forEach((rule) => printJson(rule)) : process.stdout.write(rulesTable(result.rules)))),
    );

  rules
    .command('remove')
    .argument('<rule>', 'its id (r3) or name')
    .description('remove a rule: it fires no more')
    .option('--json', 'print the server\'s whole answer as one JSON line')
    .option('--socket <path>', 'socket path')
    .action((rule: string, flags: SocketOption & { json?: boolean }) =>
      send('cli:rules:remove', 'rules.remove', { rule_id: rule }, flags, (response) => (flags.json ? printJson(response) : process.stdout.write(`removed ${response.result.rule.rule_id}\n`))),
    );
}
