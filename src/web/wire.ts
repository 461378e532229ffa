/**
 * What `herdr web` and its page say to each other over the page's one
 * WebSocket (docs/web.md). The page is a client of the herdr API like any
 * other: it sends method calls, which `herdr web` forwards to the server they
 * name, and opens `pane.stream`s for the tiles it shows. `herdr web` adds two
 * things of its own: the fleet's rows (one event subscription per server,
 * shared by every page) and the pacing of tile output (one binary frame per
 * stream per tick).
 *
 * Text frames carry JSON (below). Binary frames carry pane output, one
 * record per stream that printed since the last frame: its stream id and the
 * length of its bytes (4-byte little-endian each), then the bytes the program
 * wrote, in order.
 * The page's bundle imports this file too: it holds types and two constants.
 */
import type { AgentState, AgentStatus } from '../protocol/enums.js';
import type { NotificationInfo } from '../protocol/methods/notifications.js';
import type { PaneStreamEvents, PaneStreamStarted } from '../protocol/pane-stream.js';

/** One pane as the fleet view shows it. */
export interface TileRow {
  /** Unique across hosts: `host/stable_id` (`local/w1:p3` for the local server). */
  key: string;
  /** The server's host name; `local` for the local server. */
  host: string;
  /** The pane's stable id on its server (what calls name it by). */
  pane: string;
  workspace: string;
  workspaceLabel: string;
  /** The workspace's number and the pane's place in it: the order within a state. */
  workspaceNumber: number;
  order: number;
  /** The agent's kind (`claude`, `fake-agent`); absent for a plain shell. */
  agent?: string;
  /** The agent's name (agent.start's `name`, agent.rename): what tells ten agents of one kind apart. */
  name?: string;
  state: AgentState;
  status: AgentStatus;
  /** When the state took its value, ms since the epoch. */
  since: number;
  lastExitCode?: number;
  /**
   * Whether it prints (pane_info's output_active, docs/protocol.md §10.7; what a pane without an
   * agent shows): printing now, since when, and when it last printed (ms since the epoch).
   */
  outputActive?: true;
  outputActiveSince?: number;
  lastOutputAt?: number;
  /** Prompts waiting in its agent's queue (docs/protocol.md §13.7). */
  queued?: number;
  cwd?: string;
  /** What a blocked agent asks (its agent_message). */
  question?: string;
}

/** The event rules' firings the hub saw on every server (docs/protocol.md §13.8); `last.at` ms since the epoch. */
export interface RuleActivity {
  fired: number;
  last?: { rule: string; what: string; outcome: string; at: number };
}

export interface HostState {
  name: string;
  status: 'connecting' | 'live' | 'unreachable';
  message?: string;
}

export interface ApiError {
  code: string;
  message: string;
}

/** Page → herdr web. `host` is a name from `hello.hosts` (default: the first). */
export type PageMessage =
  | { t: 'call'; id: number; host?: string; method: string; params: object }
  /** `live`: output sent as it comes (the pane opened large), not paced with the tiles. `look`: as pane.stream's. */
  | { t: 'stream'; id: number; host?: string; pane: string; live?: boolean; look?: boolean }
  | { t: 'unstream'; id: number };

/** A stream's lines other than its output, which comes in binary frames. */
export type StreamNotice =
  | ({ event: 'stream_started' } & PaneStreamStarted)
  | { event: 'pane.resized'; data: PaneStreamEvents['pane.resized'] }
  | { event: 'pane.resync'; data: PaneStreamEvents['pane.resync'] }
  | { event: 'pane.exited'; data: PaneStreamEvents['pane.exited'] }
  /** The stream could not open or was lost; nothing more comes on this id. */
  | { event: 'stream_failed'; error: ApiError };

/** herdr web → page. */
export type ServerMessage =
  | {
      t: 'hello';
      version: string;
      readOnly: boolean;
      /** Tile frames per second. */
      fps: number;
      hosts: string[];
      /** The methods `call` may name (fewer with --read-only). */
      methods: string[];
      /**
       * Where `herdr web` runs: its directory (where "+ agent" starts on the local server when no
       * directory is given, and what a relative one is taken from) and its user's home (`~`).
       */
      cwd: string;
      home: string;
    }
  | { t: 'fleet'; rows: TileRow[]; hosts: HostState[]; rules: RuleActivity }
  /** A server showed a notification (notification.show, docs/protocol.md §5.6): the page toasts it. */
  | { t: 'notification'; host: string; notification: NotificationInfo }
  | { t: 'answer'; id: number; result?: unknown; error?: ApiError }
  | { t: 'stream'; id: number; notice: StreamNotice };

/** The host name of the local server (the socket's, not a `--host`'s). */
export const LOCAL_HOST = 'local';

/** Bytes before each record's output in a binary frame: stream id and length. */
export const OUTPUT_RECORD_HEADER_BYTES = 8;

/** A tile's screen as drawn, in CSS pixels. */
export interface TileMetrics {
  /** The pane's size. */
  cols: number;
  rows: number;
  /** The canvas's width (the tile's, less its border). */
  width: number;
  cellWidth: number;
  cellHeight: number;
  /** The font the glyphs are drawn in. */
  fontPx: number;
  /** Glyphs drawn; false: a bar per word (a minimap, below 4 device pixels a cell). */
  glyphs: boolean;
}

/** What the page exposes as `window.herdrWeb`, for the browser tests and the bench (through Playwright). */
export interface PageProbe {
  /** The tiles' keys in the order shown. */
  order(): string[];
  /** How many tiles stream now. */
  streaming(): number;
  /** Tile frames drawn since the page loaded (xterm.js render passes, all tiles together). */
  tileFrames(): number;
  tileLines(key: string): string[];
  /** How a tile's screen is drawn (undefined: no such tile). */
  tileMetrics(key: string): TileMetrics | undefined;
  /** The large pane's screen lines; none when no pane is open. */
  paneLines(): string[];
  /** The notifications' toasts shown now, each its text. */
  toasts(): string[];
}
