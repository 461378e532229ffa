/**
 * A shell command run in a pane's own shell, typed as a user would, and its
 * output and exit code read back. Nothing runs through a shell of ours: the
 * pane's shell does the work.
 *
 * What happens is followed on the pane's byte stream (`pane.stream`), between
 * marks that no terminal draws (src/mcp/command-output.ts):
 * - where the shell marks commands itself (OSC 133, docs/protocol.md §10.6: the
 *   pane has reported an exit code before, or run_command's scratch shell, which
 *   is given the integration when it is made), the command is typed as it is;
 *   the output is what follows the shell's `C`, the exit code its `D`;
 * - otherwise the line typed prints run_command's own OSC 7502 marks around it:
 *   `printf '\033]7502;herdr;start;%s\007' N; eval '<command>'; printf
 *   '\033]7502;herdr;end;%s;%s\007' N "$?"` (a POSIX shell is assumed). Only the
 *   typed line shows them.
 * A command that ends the shell (`exit 3`) ends the pane: its exit code is the
 * shell's, from `pane.exited`.
 */
import { randomBytes } from 'node:crypto';
import { type HerdrClient } from '../client/client.js';
import type { PaneInfo } from '../protocol/objects.js';
import { type Mark, MarkScanner, OutputCapture } from './command-output.js';
import { ToolError } from './tool-result.js';

export interface CommandRun {
  pane: string;
  exit_code: number | null;
  output: string;
  /** The output was longer than the lines read: its beginning is cut. */
  truncated: boolean;
  /** How the end was known: the shell's OSC 133, run_command's marks, or the shell's exit. */
  via: 'osc133' | 'marker' | 'exit';
}

export interface RunOptions {
  command: string;
  timeoutMs: number;
  /** How many lines of output at most. */
  lines: number;
  /** The shell marks commands with OSC 133 (default: it reported an exit code before, `last_exit_code`). */
  marked?: boolean;
  /**
   * The shell marks its prompt's end with OSC 133 `B` (run_command's scratch shells): the answer
   * waits for it, so that the next command is typed into the shell's line editor, not echoed by
   * the terminal before the prompt is drawn.
   */
  marksInput?: boolean;
}

/**
 * How long an ended command's answer waits for the shell's next prompt (`B`) at most: it comes at
 * once, but a shell starved of the CPU in a busy fleet draws it late, and a line typed before it
 * would be echoed twice on the pane (by the terminal, then by the line editor).
 */
const READY_WAIT_MS = 5_000;

/** `'…'` for a POSIX shell: every byte as it is. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** run_command's own mark: OSC 7502, which nothing draws or acts on (the server ignores it as any terminal does). */
const OWN_MARK = '7502;herdr;';
const startMark = (nonce: string) => `printf '\\033]${OWN_MARK}start;%s\\007' ${nonce}`;
const endMark = (nonce: string, code: string) => `printf '\\033]${OWN_MARK}end;%s;%s\\007' ${nonce} ${code}`;

/** The marks of one command: the shell's OSC 133 (`marked`) or ours with its nonce; never both. */
function markReader(marked: boolean, nonce: string): (payload: string) => Mark | undefined {
  return (payload) => {
    if (payload === '133;B' || payload.startsWith('133;B;')) return { kind: 'ready' };
    if (marked) {
      if (payload === '133;C' || payload.startsWith('133;C;')) return { kind: 'start' };
      const end = /^133;D(?:;(-?\d{1,10}))?(?:;|$)/.exec(payload);
      if (end) return { kind: 'end', exitCode: end[1] === undefined ? null : Number(end[1]) };
      return undefined;
    }
    if (payload === `${OWN_MARK}start;${nonce}`) return { kind: 'start' };
    const end = new RegExp(`^${OWN_MARK}end;${nonce};(\\d{1,10})$`).exec(payload);
    return end ? { kind: 'end', exitCode: Number(end[1]) } : undefined;
  };
}

export async function runCommand(client: HerdrClient, pane: PaneInfo, options: RunOptions): Promise<CommandRun> {
  if (pane.agent !== undefined) {
    throw new ToolError('pane_busy', `an agent (${pane.agent}) runs in ${pane.stable_id}: prompt it with prompt_agent, or run the command in another pane`);
  }
  const marked = options.marked ?? pane.last_exit_code !== undefined;
  const nonce = randomBytes(6).toString('hex');
  const line = marked ? options.command : `${startMark(nonce)}; eval ${quoted(options.command)}; ${endMark(nonce, '"$?"')}`;
  const ran = await typeAndFollow(client, pane.stable_id, line, markReader(marked, nonce), { ...options, echoOf: marked ? line : undefined, waitReady: marked && options.marksInput === true });
  return { pane: pane.stable_id, exit_code: ran.exitCode, output: ran.text, truncated: ran.truncated, via: ran.exited ? 'exit' : marked ? 'osc133' : 'marker' };
}

interface Followed {
  exitCode: number | null;
  text: string;
  truncated: boolean;
  /** The pane's program ended (the command ended the shell). */
  exited: boolean;
}

/**
 * Types `line` and Enter into the pane and follows its bytes until the end mark or the pane's
 * exit; the output between the marks, drawn.
 */
async function typeAndFollow(
  client: HerdrClient,
  paneId: string,
  line: string,
  marks: (payload: string) => Mark | undefined,
  options: { timeoutMs: number; lines: number; echoOf: string | undefined; waitReady: boolean },
): Promise<Followed> {
  const stream = await client.stream(paneId, { look: false, id: 'run_command' });
  const capture = new OutputCapture(stream.started.cols, stream.started.rows, options.lines, options.echoOf);
  let end: { exitCode: number | null; exited: boolean } | undefined;
  let ready = false;
  const scanner = new MarkScanner(
    marks,
    // What follows the end (the next prompt) is not the command's.
    (bytes) => {
      if (!end) capture.write(bytes);
    },
    (mark) => {
      if (mark.kind === 'ready') ready = end !== undefined;
      else if (end) return;
      else if (mark.kind === 'start') capture.start();
      else end = { exitCode: mark.exitCode, exited: false };
    },
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stream.close();
  }, options.timeoutMs);
  let readyTimer: NodeJS.Timeout | undefined;
  try {
    await client.call('pane.send_input', { pane_id: paneId, text: line, keys: ['Enter'] });
    for await (const event of stream) {
      if (event.event === 'pane.output') scanner.feed(Buffer.from(event.data.bytes, 'base64'));
      else if (event.event === 'pane.resized') capture.resize(event.data.cols, event.data.rows);
      // Output was dropped: an end mark in it is lost too, and the wait runs to its timeout.
      else if (event.event === 'pane.resync') capture.resync(event.data.cols, event.data.rows, event.data.snapshot);
      else if (event.event === 'pane.exited') end = { exitCode: event.data.exit_code ?? null, exited: true };
      if (end && (end.exited || !options.waitReady || ready)) break;
      // Ended: the shell's prompt follows at once; a shell that never marks it is not waited on long.
      if (end) readyTimer ??= setTimeout(() => stream.close(), READY_WAIT_MS);
    }
  } finally {
    clearTimeout(timer);
    clearTimeout(readyTimer);
    stream.close();
  }
  if (!end && timedOut) {
    throw new ToolError('timeout', `the command is still running in ${paneId}: read it with read_pane, stop it with send_keys ["C-c"]`);
  }
  // The stream ended without the pane's exit: the server went away.
  if (!end) throw new ToolError('unreachable', `the server closed ${paneId}'s stream before the command ended`);
  const drawn = await capture.drawn();
  return { ...end, ...drawn };
}

/** The shells whose integration a scratch shell is given, by the name of their program. */
const INTEGRATIONS: Record<string, (nonce: string) => string> = {
  // PS0 (the `C`) is bash 4.4's; an older bash is left without, and is run with the marks.
  bash: (nonce) =>
    [
      ' __herdr_ok=0',
      'if ((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 404)); then ' +
        "__herdr_prompt() { local code=$?; printf '\\033]133;D;%s\\007\\033]133;A\\007' \"$code\"; }; " +
        'PROMPT_COMMAND="__herdr_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}"; ' +
        "PS0=\"${PS0-}\"'\\033]133;C\\007'; PS1=\"${PS1-}\"'\\[\\033]133;B\\007\\]'; __herdr_ok=1; fi",
      'history -d $HISTCMD 2>/dev/null',
      `printf '\\033[H\\033[2J\\033[3J'; ${startMark(nonce)}; ${endMark(nonce, '"$__herdr_ok"')}; unset __herdr_ok`,
    ].join('; '),
  zsh: (nonce) =>
    [
      " __herdr_precmd() { local code=$?; printf '\\033]133;D;%s\\007\\033]133;A\\007' \"$code\"; }",
      "__herdr_preexec() { printf '\\033]133;C\\007'; }",
      'precmd_functions=(__herdr_precmd $precmd_functions)',
      'preexec_functions+=(__herdr_preexec)',
      "PS1=\"${PS1-}\"$'%{\\033]133;B\\007%}'",
      'setopt histignorespace',
      `printf '\\033[H\\033[2J\\033[3J'; ${startMark(nonce)}; ${endMark(nonce, '1')}`,
    ].join('; '),
};

/**
 * A new scratch shell is given the shell integration of docs/protocol.md §10.6 (bash, zsh), so
 * that a command is typed into it as it is and the shell reports its end and exit code itself:
 * one line, typed with a space before it (out of the history), that ends by clearing the screen
 * and its history; nobody has seen the pane yet. True when the shell now marks its commands.
 */
export async function markCommands(client: HerdrClient, pane: PaneInfo, timeoutMs: number): Promise<boolean> {
  const { process_info: info } = await client.call('pane.process_info', { pane_id: pane.stable_id });
  const program = (info.shell_argv?.[0] ?? info.foreground_processes.find((process) => process.pid === info.shell_pid)?.name ?? '')
    .split('/')
    .at(-1)
    ?.replace(/^-/, '');
  const integration = program === undefined ? undefined : INTEGRATIONS[program];
  if (!integration) return false;
  const nonce = randomBytes(6).toString('hex');
  try {
    const set = await typeAndFollow(client, pane.stable_id, integration(nonce), markReader(false, nonce), { timeoutMs, lines: 1, echoOf: undefined, waitReady: true });
    if (set.exited) throw new ToolError('pane_exited', `the new shell in ${pane.stable_id} ended at once (exit ${set.exitCode ?? '?'})`);
    return set.exitCode === 1;
  } catch (error) {
    if (error instanceof ToolError && error.code === 'timeout') throw new ToolError('timeout', `the new shell in ${pane.stable_id} did not take a line within ${timeoutMs} ms`);
    throw error;
  }
}
