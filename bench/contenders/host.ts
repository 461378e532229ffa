/**
 * What the bench needs from a terminal host (our server, or tmux as the
 * peer): panes running the clean shell, typing into them, knowing when a line
 * is readable, and the host's own CPU and memory.
 */
export type HostName = 'herdr' | 'herdr-1' | 'tmux';

/** One value for every pane, or the i-th pane's from a function (a command line, an input file). */
export type PerPane = string | ((index: number) => string);

export function perPane(value: PerPane): (index: number) => string {
  return typeof value === 'string' ? () => value : value;
}

/**
 * One request a script makes of its host, by kind, so the two hosts line up:
 * "liveness" (herdr `ping`, tmux `display-message -p`), "pane status"
 * (`pane.get`, `display-message` of the pane's fields), "read 80 lines"
 * (`pane.read` recent 80, `capture-pane` of 80 lines).
 */
export type QueryKind = 'liveness' | 'pane status' | 'read 80 lines';
export const QUERY_KINDS: readonly QueryKind[] = ['liveness', 'pane status', 'read 80 lines'];

/**
 * One command a shell script runs, by kind, as its own process: "version"
 * (`herdr --version`, `tmux -V`), "list" (`herdr workspace list`, `tmux
 * list-sessions`), "pane status" (`herdr pane get`, `tmux display-message` of
 * the pane's fields), "read 80 lines" (`herdr pane read --lines 80`, `tmux
 * capture-pane`), "type a line" (`herdr pane run`, `tmux send-keys … Enter`).
 */
export type CliKind = 'version' | 'list' | 'pane status' | 'read 80 lines' | 'type a line';
export const CLI_KINDS: readonly CliKind[] = ['version', 'list', 'pane status', 'read 80 lines', 'type a line'];

export interface PaneHost {
  readonly name: HostName;
  /** How the host is shown in reports. */
  readonly label: string;
  /**
   * Creates `count` panes running the clean shell at 120×40; resolves when every prompt shows.
   * With `command` (the i-th pane's from a function), each runs that instead (`sh -c`), and the
   * i-th id returned is the pane running the i-th command.
   */
  createPanes(count: number, command?: PerPane): Promise<string[]>;
  /**
   * A script's burst of `count` panes (herdr: workspace.create requests all in
   * flight on one connection; tmux: new-window commands chained in client
   * invocations): the seconds until the host has answered for every one
   * (each process started), then, untimed, every prompt shown.
   */
  createBurst(count: number): Promise<{ panes: string[]; seconds: number }>;
  /** Types `line` (for the i-th pane, `line(i)` when a function) and Enter into each pane. */
  typeLine(panes: readonly string[], line: PerPane): Promise<void>;
  /**
   * Resolves once every pane shows a line that is exactly `line` among its
   * last rows; call before typing what prints it (a line already there counts).
   */
  untilLine(panes: readonly string[], line: string, timeoutMs: number): Promise<void>;
  /**
   * Types `echo <token>` into `pane` and resolves when the line `<token>` is
   * readable, asking the way a script would (herdr: `pane.wait_for_output`;
   * tmux: `capture-pane` back to back).
   */
  echoRoundTrip(pane: string, token: string, timeoutMs: number): Promise<void>;
  /** Makes one request of `kind` about `pane`. */
  query(kind: QueryKind, pane: string): Promise<void>;
  /** Runs the host's command-line client once, for `kind`, about `pane`. */
  runCli(kind: CliKind, pane: string): Promise<void>;
  /**
   * Starts a pane running `command` and calls `onLine` with each printed line
   * that matches `pattern` (a whole-line regex) the moment the host tells a
   * subscriber (herdr: a `pane.output_matched` subscription; tmux: a
   * control-mode client's `%output`).
   */
  watchOutput(command: string, pattern: string, onLine: (line: string) => void): Promise<OutputWatch>;
  /**
   * A person watching a pane live: starts a pane running `command` (which
   * waits for a line of input, then prints and ends its output with `mark`),
   * attaches a viewer (herdr: `pane.stream`; tmux: a control-mode client's
   * `%output`), types Enter, and resolves once the viewer has `mark`: the
   * bytes it received and the seconds from Enter to `mark` (when the viewer's
   * picture is current).
   */
  viewOutput(command: string, mark: string, timeoutMs: number): Promise<ViewedOutput>;
  /**
   * What an agent's hook runs to record its state, once: herdr a
   * `pane.report_agent` on a connection of its own with a nanosecond seq, as
   * integrations send it; tmux `set-option -p @agent_state`, a client
   * invocation, as tmux integrations record it.
   */
  reportAgentState(pane: string, state: 'working' | 'idle'): Promise<void>;
  /** Lists every pane once (herdr `pane.list`, tmux `list-panes -a`). */
  listPanes(): Promise<number>;
  closePanes(panes: readonly string[]): Promise<void>;
  /** CPU seconds the host's server process has used so far (every thread). */
  cpuSeconds(): Promise<number>;
  rssBytes(): Promise<number>;
  stop(): Promise<void>;
}

export interface ViewedOutput {
  /** Output bytes the viewer received (fewer than printed when it was resynced). */
  bytes: number;
  seconds: number;
  /** herdr: times the viewer fell more than 1 MiB behind and was given a fresh screen instead. */
  resyncs?: number;
}

export interface OutputWatch {
  stop(): Promise<void>;
}
