/** Panes as a person reads them (docs/protocol.md §11): by their stable ids (`w1:p2`), which never renumber. */
import type { MethodResults } from '../../protocol/methods.js';
import type { PaneInfo } from '../../protocol/objects.js';
import { count, directory, fieldLines, markedTable, quoted, since } from './fields.js';

/** A pane's agent status, or `-` for a pane with no agent in it. */
const statusOf = (pane: PaneInfo): string => (pane.agent === undefined && pane.agent_status === 'unknown' ? '-' : pane.agent_status);

export function paneTable({ panes }: MethodResults['pane.list']): string {
  if (panes.length === 0) return 'no panes (create a workspace with: herdr workspace create)\n';
  return markedTable(
    ['PANE', 'AGENT', 'STATUS', 'FOR', 'DIRECTORY', 'LABEL'],
    panes.map((pane) => ({
      focused: pane.focused,
      cells: [
        pane.stable_id,
        pane.display_agent ?? pane.agent ?? '-',
        statusOf(pane),
        statusOf(pane) === '-' ? '' : since(pane.agent_state_since),
        directory(pane.foreground_cwd ?? pane.cwd),
        pane.label ?? '',
      ],
    })),
  );
}

/** One pane in a few `key: value` lines (`pane get`, `pane current`). */
export function paneFields({ pane }: { pane: PaneInfo }): string {
  const agent = pane.display_agent ?? pane.agent;
  return fieldLines([
    ['pane', `${pane.stable_id}${quoted(pane.label)}${pane.focused ? ' (focused)' : ''}`],
    ['tab', pane.tab_id],
    ['agent', agent !== undefined && `${agent}, ${pane.agent_status} for ${since(pane.agent_state_since)}`],
    ['message', pane.agent_message],
    ['queued', pane.queued_prompts !== undefined && count(pane.queued_prompts, 'prompt')],
    ['directory', directory(pane.foreground_cwd ?? pane.cwd)],
    ['title', pane.title ?? pane.terminal_title],
    ['last exit', pane.last_exit_code !== undefined && String(pane.last_exit_code)],
    ['size', `${pane.cols}×${pane.rows}, pid ${pane.pid}`],
    ['tokens', pane.tokens && Object.entries(pane.tokens).map(([name, value]) => `${name}=${value}`).join(' ')],
  ]);
}

/** `pane split`: the new pane. */
export function splitSentence({ pane }: MethodResults['pane.split'], direction: 'right' | 'down'): string {
  return `new pane ${pane.stable_id} ${direction === 'right' ? 'on the right' : 'below'}${pane.focused ? ', focused' : ''}\n`;
}

/** `pane rename`. */
export function paneRenamed({ pane }: MethodResults['pane.rename']): string {
  return pane.label === undefined ? `pane ${pane.stable_id} has no label now\n` : `pane ${pane.stable_id} is labelled "${pane.label}"\n`;
}

/** `pane wait-output`, `wait output`: the line that matched. */
export function outputMatched(result: MethodResults['pane.wait_for_output']): string {
  return `pane ${result.read.stable_id} printed: ${result.matched_line.trim()}\n`;
}

/** `pane process-info`: the pane's own process and what runs in front of it. */
export function processFields({ process_info: info }: MethodResults['pane.process_info']): string {
  const argv = (argv: string[] | undefined, name: string) => (argv && argv.length > 0 ? argv.join(' ') : name);
  const ownInFront = info.foreground_processes.length === 1 && info.foreground_processes[0]?.pid === info.shell_pid;
  return fieldLines([
    ['pane', info.stable_id],
    ['shell', `${argv(info.shell_argv, '?')} (pid ${info.shell_pid})`],
    ['tty', info.tty],
    ...info.foreground_processes.map(
      (process): readonly [string, string] => ['in front', `${ownInFront ? 'the shell itself' : argv(process.argv, process.name)} (pid ${process.pid})${process.cwd ? ` in ${directory(process.cwd)}` : ''}`],
    ),
  ]);
}
