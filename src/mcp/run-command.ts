/**
 * A shell command run in a pane's own shell, typed as a user would, and its
 * output and exit code read back. Nothing runs through a shell of ours: the
 * pane's shell does the work.
 *
 * Where the shell marks commands (OSC 133, docs/protocol.md §10.6: the pane has
 * reported an exit code before), the end is the server's
 * `pane.command_finished` event with the exit code. Otherwise an end marker is
 * printed after the command with `$?`, and `pane.wait_for_output` finds it.
 * Either way a start marker goes first, so the output is what lies between.
 */
import { randomBytes } from 'node:crypto';
import { type HerdrClient, HerdrError } from '../client/client.js';
import type { PaneInfo } from '../protocol/objects.js';
import { ToolError } from './tool-result.js';

export interface CommandRun {
  pane: string;
  exit_code: number | null;
  output: string;
  /** The output was longer than the lines read: its beginning is cut. */
  truncated: boolean;
  /** How the end was known. */
  via: 'osc133' | 'marker';
}

export interface RunOptions {
  command: string;
  timeoutMs: number;
  /** How many lines of the pane are read for the output. */
  lines: number;
}

/** `'…'` for a POSIX shell: every byte as it is. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export async function runCommand(client: HerdrClient, pane: PaneInfo, options: RunOptions): Promise<CommandRun> {
  if (pane.agent !== undefined) {
    throw new ToolError('pane_busy', `an agent (${pane.agent}) runs in ${pane.stable_id}: prompt it with prompt_agent, or run the command in another pane`);
  }
  const nonce = randomBytes(6).toString('hex');
  const start = `herdr-start-${nonce}`;
  // The markers are written with %s so that the typed line, echoed on the screen, never reads as one.
  const startCommand = `printf 'herdr-start-%s\\n' ${nonce}`;
  const paneId = pane.stable_id;
  if (pane.last_exit_code !== undefined) return runMarkedByShell(client, paneId, startCommand, start, options);

  const line = `${startCommand}; eval ${quoted(options.command)}; printf '\\nherdr-end-%s:%s\\n' ${nonce} "$?"`;
  await client.call('pane.send_input', { pane_id: paneId, text: line, keys: ['Enter'] });
  let matched;
  try {
    matched = await client.call('pane.wait_for_output', {
      pane_id: paneId,
      source: 'recent',
      lines: options.lines,
      match: { type: 'regex', value: `^herdr-end-${nonce}:[0-9]+` },
      timeout_ms: options.timeoutMs,
    });
  } catch (error) {
    throw stillRunning(error, paneId);
  }
  const endLine = matched.matched_line.trimEnd();
  const exitCode = Number(endLine.slice(endLine.lastIndexOf(':') + 1));
  const lines = matched.read.text.split('\n').map((text) => text.trimEnd());
  const end = lines.indexOf(endLine);
  const begin = startLine(lines, start, end);
  const output = lines.slice(begin + 1, end);
  // The end marker starts on a line of its own: the blank line that makes is not the command's.
  if (output.at(-1) === '') output.pop();
  return { pane: paneId, exit_code: exitCode, output: output.join('\n'), truncated: begin === -1, via: 'marker' };
}

/** The shell reports the end itself (OSC 133 D): the command is typed as it is, after the start marker. */
async function runMarkedByShell(client: HerdrClient, paneId: string, startCommand: string, start: string, options: RunOptions): Promise<CommandRun> {
  const finished = await client.subscribe([{ type: 'pane.command_finished', pane_id: paneId }]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    finished.close();
  }, options.timeoutMs);
  let exitCode: number | null | undefined;
  try {
    await client.call('pane.send_input', { pane_id: paneId, text: `${startCommand}; ${options.command}`, keys: ['Enter'] });
    for await (const line of finished) {
      if (line.event === 'pane.command_finished') {
        exitCode = line.data.exit_code;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    finished.close();
  }
  if (exitCode === undefined && timedOut) throw stillRunning(new HerdrError({ id: 'run_command', error: { code: 'timeout', message: 'timed out' } }), paneId);
  // The subscription ended without the command's end: the pane (or the server) went away.
  if (exitCode === undefined) throw new ToolError('pane_exited', `${paneId} ended before the command did`);
  const { read } = await client.call('pane.read', { pane_id: paneId, source: 'recent', lines: options.lines });
  const lines = read.text.split('\n').map((text) => text.trimEnd());
  const begin = startLine(lines, start, lines.length);
  const echoed = begin > 0 ? (lines[begin - 1] ?? '') : '';
  // The prompt the command was typed at: the shell prints it again once done.
  const prompt = echoed.slice(0, echoed.indexOf("printf 'herdr-start-")).trim();
  const output = lines.slice(begin + 1);
  while (output.length > 0 && (output.at(-1)?.trim() === '' || (prompt !== '' && output.at(-1)?.trim().startsWith(prompt)))) output.pop();
  return { pane: paneId, exit_code: exitCode, output: output.join('\n'), truncated: begin === -1, via: 'osc133' };
}

/**
 * The line the start marker printed, the last before `before`: it may follow the shell's prompt
 * (a line typed into a new shell before it drew its prompt is echoed by the terminal first, and
 * the prompt comes before the output). The echoed command line holds `herdr-start-%s`, never the marker.
 */
function startLine(lines: readonly string[], start: string, before: number): number {
  for (let index = Math.min(before, lines.length) - 1; index >= 0; index--) if (lines[index]?.endsWith(start)) return index;
  return -1;
}

/** A timeout says where the command goes on running. */
function stillRunning(error: unknown, paneId: string): unknown {
  if (error instanceof HerdrError && error.code === 'timeout') {
    return new ToolError('timeout', `the command is still running in ${paneId}: read it with read_pane, stop it with send_keys ["C-c"]`);
  }
  return error;
}
