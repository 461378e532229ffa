/** `herdr pane report-agent | release-agent | report-agent-session` (docs/protocol.md §10.5, §11): what hook scripts run. */
import type { Command } from 'commander';
import { AGENT_STATES, type AgentState } from '../../protocol/enums.js';
import { type SocketOption, given, printNothing, send } from '../output.js';
import { hookSeq, oneOf } from './parse.js';

interface HookFlags extends SocketOption {
  source: string;
  agent: string;
  seq?: bigint;
}

interface SessionFlags {
  agentSessionId?: string;
  agentSessionPath?: string;
}


function hookOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--source <source>', 'who reports (e.g. herdr:claude); seqs are kept per source')
    .requiredOption('--agent <agent>', 'the agent (a known name or any label)')
    .option('--seq <n>', 'a number larger than this source\'s last (e.g. a nanosecond clock)', hookSeq)
    .option('--socket <path>', 'socket path');
}

const sessionOptions = (cmd: Command) =>
  cmd.option('--agent-session-id <id>', 'the agent\'s own session id').option('--agent-session-path <path>', 'the agent\'s session file');

const sessionParams = (flags: SessionFlags) => ({
  ...given('agent_session_id', flags.agentSessionId),
  ...given('agent_session_path', flags.agentSessionPath),
});

export function addAgentReportCommands(pane: Command): void {
  sessionOptions(
    hookOptions(
      pane
        .command('report-agent')
        .argument('<id>')
        .description('report an agent\'s state for a pane (overrides the screen rules while that agent runs)')
        .requiredOption('--state <state>', AGENT_STATES.join(' | '), oneOf(...AGENT_STATES))
        .option('--message <text>', 'why (a blocked agent\'s question)'),
    ),
  ).action((id: string, flags: HookFlags & SessionFlags & { state: AgentState; message?: string }) =>
    send(
      'cli:pane:report-agent',
      'pane.report_agent',
      {
        pane_id: id,
        source: flags.source,
        agent: flags.agent,
        state: flags.state,
        ...given('message', flags.message),
        ...given('seq', flags.seq),
        ...sessionParams(flags),
      },
      flags,
      printNothing,
    ),
  );

  hookOptions(pane.command('release-agent').argument('<id>').description('hand the pane back to the screen rules')).action(
    (id: string, flags: HookFlags) =>
      send(
        'cli:pane:release-agent',
        'pane.release_agent',
        { pane_id: id, source: flags.source, agent: flags.agent, ...given('seq', flags.seq) },
        flags,
        printNothing,
      ),
  );

  sessionOptions(
    hookOptions(
      pane
        .command('report-agent-session')
        .argument('<id>')
        .description('record the agent\'s own session id or file (changes no state)')
        .option('--session-start-source <source>', 'how the session started (startup, resume, …)'),
    ),
  ).action((id: string, flags: HookFlags & SessionFlags & { sessionStartSource?: string }) =>
    send(
      'cli:pane:report-agent-session',
      'pane.report_agent_session',
      {
        pane_id: id,
        source: flags.source,
        agent: flags.agent,
        ...given('seq', flags.seq),
        ...sessionParams(flags),
        ...given('session_start_source', flags.sessionStartSource),
      },
      flags,
      printNothing,
    ),
  );
}
