/**
 * What the bench needs from a terminal host (our server, or tmux as the
 * peer): panes running the clean shell, typing into them, knowing when a line
 * is readable, and the host's own CPU and memory.
 */
export type HostName = 'herdr' | 'herdr-1' | 'tmux';

export interface PaneHost {
  readonly name: HostName;
  /** How the host is shown in reports. */
  readonly label: string;
  /** Creates `count` panes running the clean shell at 120×40; resolves when every prompt shows. */
  createPanes(count: number, command?: string): Promise<string[]>;
  /** Types `line` and Enter into each pane. */
  typeLine(panes: readonly string[], line: string): Promise<void>;
  /**
   * Resolves once every pane shows a line that is exactly `line` among its
   * last rows; call before typing what prints it (a line already there counts).
   */
  untilLine(panes: readonly string[], line: string, timeoutMs: number): Promise<void>;
  closePanes(panes: readonly string[]): Promise<void>;
  /** CPU seconds the host's server process has used so far (every thread). */
  cpuSeconds(): Promise<number>;
  rssBytes(): Promise<number>;
  stop(): Promise<void>;
}
