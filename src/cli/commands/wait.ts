/** `herdr wait output` and `herdr wait agent-state` (docs/protocol.md §11). */
import type { Command } from 'commander';
import { HerdrClient } from '../../client/client.js';
import { AGENT_STATES, type AgentState } from '../../protocol/enums.js';
import { EXIT } from '../exit-codes.js';
import { exitWith, fail, usageError } from '../failure.js';
import { type SocketOption, printJson, send, shown, targetOf } from '../output.js';
import { outputMatched } from '../human/panes.js';
import { personReadsStdout } from '../reader.js';
import { nonNegativeInt, oneOf } from './parse.js';

interface OutputFlags extends SocketOption {
  match?: string;
  source: 'visible' | 'recent';
  lines?: number;
  timeout?: number;
  /** herdr 0.2.0's `--regex` (treat --match as a regex), or as `pane wait-output` takes it, the pattern itself. */
  regex?: boolean | string;
}

export function addWaitCommands(program: Command): void {
  const wait = program.command('wait').description('wait for output or an agent state');

  wait
    .command('output')
    .argument('<id>')
    .description('wait until a line of the pane matches (prints the response JSON)')
    .option('--match <text>', 'substring (or RE2 regex with --regex) to wait for')
    .option('--source <source>', 'visible | recent', oneOf('visible', 'recent'), 'recent')
    .option('--lines <n>', 'rows of recent text to search', nonNegativeInt)
    .option('--timeout <ms>', 'give up after this long (default: wait until matched)', nonNegativeInt)
    .option('--regex [pattern]', 'an RE2 regular expression to wait for, as `pane wait-output` takes it; alone, treat --match as one')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: OutputFlags) => {
      const pattern = typeof flags.regex === 'string' ? flags.regex : undefined;
      if ((flags.match === undefined) === (pattern === undefined)) usageError('give one of --match TEXT (with --regex: a pattern) or --regex PATTERN');
      const match = pattern !== undefined ? { type: 'regex' as const, value: pattern } : { type: flags.regex ? ('regex' as const) : ('substring' as const), value: flags.match ?? '' };
      return send(
        'cli:wait:output',
        'pane.wait_for_output',
        {
          pane_id: id,
          source: flags.source,
          match,
          ...(flags.lines === undefined ? {} : { lines: flags.lines }),
          ...(flags.timeout === undefined ? {} : { timeout_ms: flags.timeout }),
        },
        flags,
        shown(outputMatched),
      );
    });

  wait
    .command('agent-state')
    .argument('<id>')
    .description('wait until the pane\'s agent is in a state (at once if it already is); prints the event line')
    .requiredOption('--state <state>', AGENT_STATES.join(' | '), oneOf(...AGENT_STATES))
    .option('--timeout <ms>', 'give up after this long', nonNegativeInt)
    .option('--json', 'print the event line as JSON (what is printed when stdout is not a terminal)')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: SocketOption & { state: AgentState; timeout?: number }) => waitAgentState(id, flags));
}

/** The library's waitForAgentState (at once when the pane already is in the state); the deadline counts from the start. */
async function waitAgentState(id: string, flags: SocketOption & { state: AgentState; timeout?: number }): Promise<void> {
  const target = { pane_id: id };
  const client = new HerdrClient({ dialer: targetOf(flags, target) });
  if (flags.timeout !== undefined) setTimeout(() => fail('timed out waiting for agent state change'), flags.timeout);
  try {
    const line = await client.waitForAgentState(target.pane_id, flags.state, { id: 'cli:wait:agent-state' });
    if (personReadsStdout()) process.stdout.write(`pane ${id} is ${line.data.state}${line.data.agent === undefined ? '' : ` (${line.data.agent})`}\n`);
    else printJson(line);
    process.exit(EXIT.ok);
  } catch (error) {
    // The deadline is the timer above, not the helper's: a HerdrError here is the server's answer, printed whole.
    exitWith(error);
  }
}
