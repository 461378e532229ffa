/** `herdr wait output` and `herdr wait agent-state` (SPEC §11). */
import { connect } from 'node:net';
import type { Command } from 'commander';
import { type ResponseEnvelope, isErrorResponse } from '../../protocol/envelope.js';
import { connectError, lineReader } from '../client.js';
import type { EventLine } from '../../protocol/events.js';
import { AGENT_STATES, type AgentState } from '../../protocol/objects.js';
import { resolveSocketPath } from '../../protocol/socket-path.js';
import { EXIT } from '../exit-codes.js';
import { type SocketOption, fail, printJson, send } from '../output.js';
import { nonNegativeInt, oneOf } from './parse.js';

interface OutputFlags extends SocketOption {
  match: string;
  source: 'visible' | 'recent';
  lines?: number;
  timeout?: number;
  regex?: boolean;
}

export function addWaitCommands(program: Command): void {
  const wait = program.command('wait').description('wait for output or an agent state');

  wait
    .command('output')
    .argument('<id>')
    .description('wait until a line of the pane matches (prints the response JSON)')
    .requiredOption('--match <text>', 'substring (or RE2 regex with --regex) to wait for')
    .option('--source <source>', 'visible | recent', oneOf('visible', 'recent'), 'recent')
    .option('--lines <n>', 'rows of recent text to search', nonNegativeInt)
    .option('--timeout <ms>', 'give up after this long (default: wait until matched)', nonNegativeInt)
    .option('--regex', 'treat --match as an RE2 regular expression')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: OutputFlags) =>
      send(
        'cli:wait:output',
        'pane.wait_for_output',
        {
          pane_id: id,
          source: flags.source,
          match: { type: flags.regex ? 'regex' : 'substring', value: flags.match },
          ...(flags.lines === undefined ? {} : { lines: flags.lines }),
          ...(flags.timeout === undefined ? {} : { timeout_ms: flags.timeout }),
        },
        flags,
      ),
    );

  wait
    .command('agent-state')
    .argument('<id>')
    .description('wait until the pane\'s agent is in a state (at once if it already is); prints the event line')
    .requiredOption('--state <state>', AGENT_STATES.join(' | '), oneOf(...AGENT_STATES))
    .option('--timeout <ms>', 'give up after this long', nonNegativeInt)
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: SocketOption & { state: AgentState; timeout?: number }) => waitAgentState(id, flags));
}

/** A subscription with `initial: true`: the current state comes first if it already is the one wanted. */
function waitAgentState(id: string, flags: SocketOption & { state: AgentState; timeout?: number }): Promise<void> {
  const socketPath = flags.socket ?? resolveSocketPath();
  return new Promise(() => {
    const socket = connect(socketPath);
    let acked = false;
    if (flags.timeout !== undefined) {
      setTimeout(() => fail('timed out waiting for agent state change'), flags.timeout);
    }
    socket.on('connect', () => {
      const subscriptions = [{ type: 'pane.agent_state_changed', pane_id: id, state: flags.state, initial: true }];
      socket.write(`${JSON.stringify({ id: 'cli:wait:agent-state', method: 'events.subscribe', params: { subscriptions } })}\n`);
    });
    lineReader(socket, (line) => {
      const message = JSON.parse(line) as ResponseEnvelope | EventLine;
      if (!acked) {
        acked = true;
        if ('id' in message && isErrorResponse(message)) {
          process.stderr.write(`${line}\n`);
          process.exit(EXIT.failure);
        }
        return;
      }
      const event = message as EventLine;
      if (event.event === 'pane.agent_state_changed' && (event.data as { state?: string }).state === flags.state) {
        printJson(event);
        process.exit(EXIT.ok);
      }
    });
    socket.on('error', (error) => fail(connectError(socketPath, error).message));
    socket.on('close', () => fail('the server closed the event stream'));
  });
}
