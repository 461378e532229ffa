/**
 * `herdr pane process-info | rename | report-metadata` and `herdr workspace
 * report-metadata` (docs/protocol.md §11): what runs in a pane, its label, and
 * display-only tokens.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { AgentStatus } from '../../protocol/enums.js';
import { type SocketOption, given, printNothing, send, shown } from '../output.js';
import { paneRenamed, processFields } from '../human/panes.js';
import { hookSeq, positiveInt } from './parse.js';

const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

/** Collects a repeated `name=value` flag into its pairs (split at the first `=`). */
function pairs(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected name=value, got ${value}`);
  return [...previous, [value.slice(0, at), value.slice(at + 1)]];
}

const names = (value: string, previous: string[] = []): string[] => [...previous, value];

interface TokenFlags {
  token?: Array<[string, string]>;
  clearToken?: string[];
}

interface ReportFlags extends SocketOption, TokenFlags {
  source: string;
  ttl?: number;
  seq?: bigint;
}

/** `--token a=1 --clear-token b` as the report's map (a cleared name is null). */
function tokensOf(flags: TokenFlags): Record<string, string | null> {
  const tokens: Record<string, string | null> = {};
  for (const [name, value] of flags.token ?? []) tokens[name] = value;
  for (const name of flags.clearToken ?? []) tokens[name] = null;
  return tokens;
}


function reportOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--source <source>', 'who reports (1-80 of A-Z a-z 0-9 : . _ -); seqs are kept per source')
    .option('--token <name=value>', 'set a token (repeatable; at most 16 a report)', pairs)
    .option('--clear-token <name>', 'remove a token this source set (repeatable)', names)
    .option('--ttl <ms>', 'the values vanish this long after the report (1-86400000)', positiveInt)
    .option('--seq <n>', 'a number larger than this source\'s last (e.g. a nanosecond clock)', hookSeq)
    .option('--socket <path>', 'socket path');
}

export function addPaneDetailCommands(pane: Command): void {
  socket(pane.command('process-info').argument('[id]').description('show the pane\'s shell, foreground processes, their argv and directories (default: the focused pane)'))
    .action((id: string | undefined, flags: SocketOption) =>
      send('cli:pane:process-info', 'pane.process_info', id === undefined ? {} : { pane_id: id }, flags, shown(processFields)),
    );

  socket(
    pane
      .command('rename')
      .argument('<id>')
      .argument('[label...]')
      .description('set the pane\'s own label, or remove it with --clear')
      .option('--clear', 'remove the label'),
  ).action((id: string, words: string[], flags: SocketOption & { clear?: boolean }, command: Command) => {
    if (Boolean(flags.clear) === words.length > 0) command.error('error: give a LABEL or --clear (not both)', { code: 'herdr.usage', exitCode: 2 });
    return send('cli:pane:rename', 'pane.rename', { pane_id: id, label: flags.clear ? null : words.join(' ') }, flags, shown(paneRenamed));
  });

  reportOptions(
    pane
      .command('report-metadata')
      .argument('<id>')
      .description('report display-only tokens, a title, an agent name or state labels for a pane (changes no state)')
      .option('--title <text>', 'a title for the pane\'s agent')
      .option('--clear-title', 'remove this source\'s title')
      .option('--display-agent <name>', 'the agent name to show')
      .option('--clear-display-agent', 'remove this source\'s agent name')
      .option('--state-label <state=text>', 'text to show for a state: idle, working, blocked, done, unknown (repeatable)', pairs)
      .option('--clear-state-labels', 'remove this source\'s state labels'),
  ).action(
    (
      id: string,
      flags: ReportFlags & {
        title?: string;
        clearTitle?: boolean;
        displayAgent?: string;
        clearDisplayAgent?: boolean;
        stateLabel?: Array<[string, string]>;
        clearStateLabels?: boolean;
      },
    ) =>
      send(
        'cli:pane:report-metadata',
        'pane.report_metadata',
        {
          pane_id: id,
          source: flags.source,
          tokens: tokensOf(flags),
          ...given('title', flags.title),
          ...given('clear_title', flags.clearTitle),
          ...given('display_agent', flags.displayAgent),
          ...given('clear_display_agent', flags.clearDisplayAgent),
          // The server checks the state names.
          ...given('state_labels', flags.stateLabel && (Object.fromEntries(flags.stateLabel) as Partial<Record<AgentStatus, string>>)),
          ...given('clear_state_labels', flags.clearStateLabels),
          ...given('ttl_ms', flags.ttl),
          ...given('seq', flags.seq),
        },
        flags,
        printNothing,
      ),
  );
}

export function addWorkspaceMetadataCommand(workspace: Command): void {
  reportOptions(
    workspace.command('report-metadata').argument('<id>').description('report display-only tokens for a workspace (changes no state)'),
  ).action((id: string, flags: ReportFlags) =>
    send(
      'cli:workspace:report-metadata',
      'workspace.report_metadata',
      { workspace_id: id, source: flags.source, tokens: tokensOf(flags), ...given('ttl_ms', flags.ttl), ...given('seq', flags.seq) },
      flags,
      printNothing,
    ),
  );
}
