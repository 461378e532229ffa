/**
 * `herdr agent …` (docs/protocol.md §13, §11): the agent API with herdr's argv. A target
 * is an agent's instance id, the id of its pane, or its name.
 */
import type { Command } from 'commander';
import { AGENT_STATUSES, type AgentStatus } from '../../protocol/enums.js';
import { usageError } from '../failure.js';
import { type SocketOption, given, printJson, printNothing, send, shown, targetOf } from '../output.js';
import {
  agentFields, agentFocused, agentPrompted, agentRenamed, agentStarted, agentTable, agentWaited, queueTable, turnCancelled, turnFields,
} from '../human/agents.js';
import { type ReadFlags, readOptions, readParams } from './read-options.js';
import { oneOf, positiveInt, sendKey } from './parse.js';
import { callerCwd, callerEnv } from '../../client/caller-place.js';
import { promptAndWait } from '../prompt-wait.js';

const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

/** `--until` may be given many times: each adds a status. */
function collectStatus(value: string, previous: AgentStatus[] = []): AgentStatus[] {
  return [...previous, oneOf(...AGENT_STATUSES)(value)];
}

interface PromptFlags extends SocketOption {
  wait?: boolean;
  until?: AgentStatus[];
  timeout?: number;
  stall?: number;
  key?: string;
  keepWaiting?: boolean;
  cancelOnInterrupt?: boolean;
}

interface StartFlags extends SocketOption {
  kind?: string;
  pane?: string;
  cwd?: string;
  label?: string;
  timeout?: number;
  wait: boolean;
  focus?: boolean;
}

export function addAgentCommands(program: Command): void {
  const agent = program.command('agent').description('start, prompt, wait on and read agents (a target is an instance id, pane id or name)');

  socket(agent.command('list').description('list the agents in every pane, with their status')).action((flags: SocketOption) =>
    send('cli:agent:list', 'agent.list', {}, flags, shown(agentTable)),
  );

  socket(agent.command('get').argument('<target>').description('show one agent')).action((target: string, flags: SocketOption) =>
    send('cli:agent:get', 'agent.get', { target }, flags, shown(agentFields)),
  );

  socket(
    readOptions(agent.command('read').argument('<target>').description('print the agent\'s screen text (a read counts as looking: done turns idle)')).option(
      '--json',
      'print the server\'s whole answer (the text with its revision and ids) as one JSON line',
    ),
  ).action((target: string, flags: SocketOption & ReadFlags & { json?: boolean }) =>
    send('cli:agent:read', 'agent.read', { target, ...readParams(flags) }, flags, (response) =>
      flags.json ? printJson(response) : process.stdout.write(response.result.read.text),
    ),
  );

  socket(
    agent
      .command('start')
      .argument('<name>', 'a name to address it by: a lowercase letter, then up to 31 of a-z 0-9 - _')
      .argument('[argv...]', 'after --: the kind\'s arguments, or without --kind the whole command')
      .description('start an agent in a new workspace or an idle shell pane; answers when it is ready for input')
      .option('--kind <kind>', 'a known agent (pi, claude, codex, …)')
      .option('--pane <id>', 'type it into this idle shell pane instead of a new workspace')
      .option('--cwd <dir>', 'directory of the new workspace')
      .option('--label <label>', 'label of the new pane')
      .option('--focus', 'focus the new workspace')
      .option('--timeout <ms>', 'how long to wait until it is ready (default 30000)', positiveInt)
      .option('--no-wait', 'answer at once (launch_pending) instead of when it is ready'),
  ).action((name: string, argv: string[], flags: StartFlags) => {
    if (flags.kind === undefined && argv.length === 0) usageError('give --kind, or the command after --');
    send(
      'cli:agent:start',
      'agent.start',
      {
        name,
        ...(flags.kind === undefined ? { command: argv } : { kind: flags.kind, ...given('args', argv.length > 0 ? argv : undefined) }),
        ...given('pane_id', flags.pane),
        // A new workspace starts where the caller stands, its program found on the caller's PATH;
        // a given pane keeps its shell's (the server refuses cwd and env with pane_id).
        ...(flags.pane === undefined ? { cwd: callerCwd(flags.cwd), env: callerEnv(undefined) } : given('cwd', flags.cwd)),
        ...given('label', flags.label),
        ...given('focus', flags.focus),
        ...given('timeout_ms', flags.timeout),
        wait: flags.wait,
      },
      flags,
      shown(agentStarted),
    );
  });

  socket(
    agent
      .command('prompt')
      .argument('<target>')
      .argument('<text...>')
      .description('a prompt as a turn: submitted as its CLI takes one (typed, seen, Enter, seen taken) when the agent is ready, queued while it is busy or blocked; answers with the turn; with --wait, when that turn ends')
      .option('--wait', 'wait until the agent is idle, done or blocked again (or --until)')
      .option('--key <key>', 'a client key: a retry with the same key returns the same turn and types nothing')
      .option('--until <status>', `wait for this status (repeatable): ${AGENT_STATUSES.join(' | ')}`, collectStatus)
      .option('--timeout <ms>', 'give up waiting after this long', positiveInt)
      .option('--keep-waiting', 'with --wait: wait on when the agent is blocked on a question (else say so and end, exit 1)')
      .option('--cancel-on-interrupt', 'with --wait: Ctrl-C takes the prompt back if it is still queued (else it stays, and its turn id is printed)')
      .option('--stall <ms>', 'how long the agent may stay in its state before the prompt counts as stalled (default 5000)', positiveInt),
  ).action((target: string, words: string[], flags: PromptFlags) => {
    if (!flags.wait && (flags.until !== undefined || flags.timeout !== undefined || flags.keepWaiting || flags.cancelOnInterrupt)) {
      usageError('--until, --timeout, --keep-waiting and --cancel-on-interrupt need --wait');
    }
    const text = words.join(' ');
    if (flags.wait) {
      const params = { target };
      const dialer = targetOf(flags, params);
      const options = { target: params.target, text, until: flags.until, timeoutMs: flags.timeout, stallMs: flags.stall, key: flags.key };
      return promptAndWait(dialer, { ...options, keepWaiting: flags.keepWaiting === true, cancelOnInterrupt: flags.cancelOnInterrupt === true });
    }
    return send('cli:agent:prompt', 'agent.prompt', { target, text, ...given('stall_ms', flags.stall), ...given('key', flags.key) }, flags, shown(agentPrompted));
  });

  socket(agent.command('turn').argument('<turn_id>').description('a prompt\'s turn: queued, sent, started, finished (with its outcome and duration), failed or cancelled'))
    .action((turnId: string, flags: SocketOption) => send('cli:agent:turn', 'agent.turn.get', { turn_id: turnId }, flags, shown(turnFields)));

  socket(agent.command('queue').argument('<target>').description('the prompts waiting for the agent, next first'))
    .action((target: string, flags: SocketOption) => send('cli:agent:queue', 'agent.queue.list', { target }, flags, shown((result) => queueTable(result, target))));

  socket(agent.command('cancel').argument('<turn_id>').description('take back a queued prompt (one already written cannot be)'))
    .action((turnId: string, flags: SocketOption) => send('cli:agent:cancel', 'agent.queue.cancel', { turn_id: turnId }, flags, shown(turnCancelled)));

  socket(
    agent
      .command('wait')
      .argument('<target>')
      .description('wait until the agent is idle, done or blocked (or --until); at once if it already is')
      .option('--until <status>', `wait for this status (repeatable): ${AGENT_STATUSES.join(' | ')}`, collectStatus)
      .option('--timeout <ms>', 'give up after this long', positiveInt),
  ).action((target: string, flags: SocketOption & { until?: AgentStatus[]; timeout?: number }) =>
    send('cli:agent:wait', 'agent.wait', { target, ...given('until', flags.until), ...given('timeout_ms', flags.timeout) }, flags, shown(agentWaited)),
  );

  socket(agent.command('send-keys').argument('<target>').argument('<keys...>', 'keys: a character, Enter, Tab, Esc, Up, C-c, M-x, F1…F12', sendKey).description('press keys in the agent\'s pane (e.g. answer its menu)'))
    .action((target: string, keys: string[], flags: SocketOption) => send('cli:agent:send-keys', 'agent.send_keys', { target, keys }, flags, printNothing));

  socket(
    agent
      .command('rename')
      .argument('<target>')
      .argument('[name]')
      .description('name the agent (it keeps the name while it runs in the pane)')
      .option('--clear', 'remove its name'),
  ).action((target: string, name: string | undefined, flags: SocketOption & { clear?: boolean }) => {
    if ((name === undefined) === !flags.clear) usageError('give a name or --clear');
    send('cli:agent:rename', 'agent.rename', { target, name: flags.clear ? null : name }, flags, shown(agentRenamed));
  });

  socket(agent.command('focus').argument('<target>').description('focus the agent\'s pane (counts as looking: done turns idle)')).action(
    (target: string, flags: SocketOption) => send('cli:agent:focus', 'agent.focus', { target }, flags, shown(agentFocused)),
  );

  socket(
    agent
      .command('explain')
      .argument('<target>')
      .description('which hook report, status or screen rule decided the state, with the evidence')
      // herdr's current CLI prints text unless --json; here the answer is always the JSON, so --json is accepted as is.
      .option('--json', 'print the JSON answer (the only form)'),
  ).action(
    (target: string, flags: SocketOption) => send('cli:agent:explain', 'agent.explain', { target }, flags),
  );
}
