/**
 * Every message between the main thread and a shard worker, in both directions.
 * Both sides switch on `kind`; the compiler checks that every kind is handled.
 *
 * Panes and workspaces are named by their stable uids here; compact ids exist
 * only at the socket edge (main thread).
 */
import type { AgentManifestFile } from './agent-manifest.js';
import type { ErrorCode } from './errors.js';
import type { ResolvedKey } from './keys.js';
import type { ScreenMenu } from './menu.js';
import type { AgentSession, AgentSource, AgentState, NotificationKind } from './objects.js';
import type { MatchSpec, ReadWindow } from './read-window.js';

/** A shard that printed nothing this long seals its history and gives memory back (`herdr server --reclaim-after`). */
export const DEFAULT_RECLAIM_AFTER_MS = 30_000;

export interface ShardInit {
  shardId: number;
  /** Where this shard appends its panes' history blocks (docs/persistence.md); undefined: nothing is kept. */
  blocksDir: string | undefined;
  /** The user's home, for the `~` label. */
  home: string;
  /** Whether the `fault` request may be obeyed (HERDR_DEBUG_FAULTS=1, tests only). */
  debugFaults: boolean;
  /** The shard thread's nice value (0: unchanged); its pane processes inherit it (workers/thread-priority.ts). */
  nice: number;
  /** How long a shard prints nothing before it gives memory back (workers/quiet-time.ts; DEFAULT_RECLAIM_AFTER_MS). */
  reclaimAfterMs: number;
  /** The user's agent manifests in use (docs/protocol.md §10.8), for a shard started after they were taken. */
  agentManifests?: AgentManifestFile[];
}

/** One agent's detection table as the shards use it (`server.agent_manifests`). */
export interface AgentTableSummary {
  agent: string;
  /** `bundled`, or the manifest file its rules come from. */
  source: string;
  /** An agent the built-in tables do not have, known only by its manifest. */
  added: boolean;
  /** The manifest's `version`. */
  version?: string;
  /** The process names it is identified by. */
  names: string[];
  /** How many screen rules it has. */
  rules: number;
}

/**
 * Ways a shard can be made to fail from outside, for the fault tests (docs/testing.md):
 * `exit` ends the worker, `throw` raises an uncaught exception, `hang` stops its event
 * loop for good, `oom` allocates on the pane's behalf until the shard's heap limit.
 */
export const SHARD_FAULTS = ['exit', 'throw', 'hang', 'oom'] as const;
export type ShardFault = (typeof SHARD_FAULTS)[number];

export interface SpawnParams {
  paneUid: number;
  workspaceUid: number;
  argv: string[];
  cwd: string;
  /** Start in this pane's live directory instead (split without `cwd`); `cwd` if it is gone. */
  inheritCwdFromPaneUid?: number;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The pane comes back from a snapshot: its old history and last screen first, then a marker row. */
  restore?: PaneRestore;
}

/** Where a full history block sits in a shard's block file. */
export interface BlockRef {
  file: string;
  offset: number;
  length: number;
}

/** A pane's history as a snapshot keeps it: full blocks on disk, the unfinished last one inline. */
export interface HistoryState {
  blocks: BlockRef[];
  /** Rows at the start of the first block that the capacity already dropped. */
  firstRow: number;
  /** The last block, packed (block-codec.ts); absent when the history is empty. */
  tail?: Uint8Array;
}

/** What a snapshot keeps of a pane's terminal (shard side). */
export interface PaneTerminalState {
  paneUid: number;
  history: HistoryState;
  /** The rows on the screen, packed like a block. */
  screen: Uint8Array;
  /** The live directory of the pane's process, when known. */
  cwd: string | undefined;
}

export interface PaneRestore {
  history: HistoryState;
  screen: Uint8Array;
  /** The row written between the old rows and the new process's output. */
  marker: string;
}

/** What main learns about a pane when it starts. */
export interface PaneStarted {
  pid: number;
  cwd: string;
  cwdLabel: string;
}

export interface ReadParams extends ReadWindow {
  paneUid: number;
}

/** A cell of a pane's text: row 0 the screen's top, negative rows the history above it. */
export interface TextCell {
  row: number;
  col: number;
}

export interface SelectionParams {
  paneUid: number;
  start: TextCell;
  end: TextCell;
  /** The same columns of every row, rather than a terminal's drag from start to end. */
  block: boolean;
}

export interface SelectionResult {
  text: string;
  start: TextCell;
  end: TextCell;
  revision: number;
}

/** A matcher flipped: to "match" (with the top-most matching line and its read), or back. */
export type MatchChange = { matched: true; matchedLine: string; read: ReadResult } | { matched: false };

export interface ReadResult {
  text: string;
  revision: number;
  truncated: boolean;
}

export interface MenuOnScreen {
  menu: ScreenMenu | undefined;
  /** Names the question and options (or, without a menu, the screen's last lines). */
  hash: string;
}

export interface InputParams {
  paneUid: number;
  text: string;
  keys: ResolvedKey[];
  /** Wrap multi-line text (`always`: any text) in bracketed paste when the program enabled it. */
  paste: boolean | 'always';
}

/** A prompt to submit to the pane's agent (workers/agents/prompt-submission.ts). */
export interface SubmitParams {
  paneUid: number;
  text: string;
  /** How long after the first Enter the agent has to show it took the prompt. */
  stallMs: number;
}

/** How a submission went: whether the agent took it, by what sign, and when each step happened (ms since the epoch). */
export interface SubmitResult {
  accepted: boolean;
  /**
   * `state`: the agent's state moved (after its input box let go of the text, or without); `input`:
   * its input box let go of the text, but its state did not move within the stall window.
   */
  acceptedBy?: 'state' | 'input';
  /** When the typed text showed on the screen. */
  echoedAt?: number;
  /** When the first Enter was written. */
  enteredAt: number;
  /** When the CLI took the text: its input box let go of it, else its state moved. */
  acceptedAt?: number;
  /** How many Enters it took (more than one: the CLI lost the first). */
  enters: number;
  /** How many times the agent had turned working or blocked when Enter was written: only a later turn to work belongs to the prompt. */
  busyAtEnter: number;
  /** The screen's last lines, for a prompt that did not take. */
  evidence?: string[];
  /** The pane ended while the prompt was being submitted. */
  paneEnded?: true;
}

/** An output matcher: a pattern looked for in a pane's read window (docs/protocol.md §6 matching). */
export interface MatcherParams extends ReadWindow {
  matcherId: number;
  paneUid: number;
  pattern: MatchSpec;
}

/**
 * A pane's screen as the escape sequences that redraw it (screen-redraw.ts; the wire
 * calls them `snapshot`), and where it sits
 * in the pane's stream: it includes every paneOutput and paneResized with a
 * `seq` up to this one, and none after.
 */
export interface PaneScreen {
  cols: number;
  rows: number;
  redraw: string;
  seq: number;
}

export interface ShardStatsResult {
  panes: number;
  bytesParsed: number;
  matchers: number;
  /** The shard isolate's V8 heap in use. */
  heapUsedBytes: number;
  /** What its panes' histories hold (rows, and packed forms once sealed), outside the heap. */
  historyBytes: number;
}

/**
 * An agent's hook report (docs/protocol.md §10.5), after main checked the pane and the label.
 * The shard applies the seq rules and the authority rules; main has already answered the client.
 */
export type HookReport = { paneUid: number; source: string; seq?: bigint } & (
  | { kind: 'report'; agent: string; state: AgentState; message?: string; session?: AgentSession }
  | { kind: 'release'; agent: string }
  | { kind: 'session'; agent: string; session: AgentSession }
);

/** `pane.clear_agent_authority`: one source's claim, or every claim without `source`. */
export interface ClearAuthority {
  paneUid: number;
  source?: string;
  seq?: bigint;
}

/** Request kinds: params sent, result answered. */
export interface ShardRequests {
  spawn: { params: SpawnParams; result: PaneStarted };
  read: { params: ReadParams; result: ReadResult };
  /** The text between two cells (`pane.selection.read`), the corners as clamped. */
  selection: { params: SelectionParams; result: SelectionResult };
  input: { params: InputParams; result: null };
  /** Types a prompt into the pane's agent, presses Enter as that CLI needs, and answers once it took it or did not. */
  submit: { params: SubmitParams; result: SubmitResult };
  resize: { params: { paneUid: number; cols: number; rows: number }; result: null };
  /** Moves the pane's view over its history (`pane.scroll`); its position after, and whether it moved. */
  scroll: { params: { paneUid: number; move: ScrollMove }; result: { changed: boolean; scroll: ScrollPosition } };
  /** Ends the pane's processes (SIGHUP, SIGKILL after a grace) and forgets the pane. */
  close: { params: { paneUid: number }; result: null };
  /** Ends every pane and answers when all have exited (or the grace ran out). */
  shutdown: { params: Record<string, never>; result: null };
  stats: { params: Record<string, never>; result: ShardStatsResult };
  /** Registers a matcher and evaluates it at once; it starts from "no match". */
  addMatcher: { params: MatcherParams; result: null };
  removeMatcher: { params: { matcherId: number }; result: null };
  hook: { params: HookReport; result: null };
  clearAuthority: { params: ClearAuthority; result: null };
  /**
   * A `pane.stream` opened on the pane: the screen now, and from here on every
   * chunk of its output and every resize is posted (paneOutput, paneResized)
   * until as many `streamClose` came.
   */
  streamOpen: { params: { paneUid: number }; result: PaneScreen };
  streamClose: { params: { paneUid: number }; result: null };
  /** The screen now, for a stream that fell behind (its output kept flowing). */
  screen: { params: { paneUid: number }; result: PaneScreen };
  /** The menu on the pane's screen (approvals.list) and the hash that names it. */
  menu: { params: { paneUid: number }; result: MenuOnScreen };
  /** Types the keys for `option` only if the menu on the screen still has `questionHash` (one step in the shard: nothing can come between). */
  answerMenu: { params: { paneUid: number; option: string; questionHash: string }; result: { keys: string[]; label: string } };
  /**
   * The terminal state of every pane that changed since the last `persist`
   * (every pane with `all`): new full history blocks are appended to the
   * shard's block file and synced first. `blockFile` is the file it appends
   * to now; files no snapshot names any more may be deleted. `owesRound`:
   * another round is owed, because some blocks went to disk uncompressed
   * (the shard was flooding) or a flooding pane's state waited for a later
   * round.
   */
  persist: { params: { all: boolean }; result: { panes: PaneTerminalState[]; blockFile: string | undefined; owesRound: boolean } };
  /**
   * The user's agent manifests to use from now on, all or none (docs/protocol.md §10.8): a set that
   * does not fit together (two files for one agent, a file named after another agent) is refused
   * with the file and the reason, and the shard keeps the set it had. Answers every table in use.
   */
  agentManifests: { params: { files: AgentManifestFile[] }; result: AgentTableSummary[] };
  /** Which layer decided the pane's agent state now, with its evidence (`agent.explain`). */
  explain: { params: { paneUid: number }; result: AgentExplanation };
  /** Answered at once: the shard's event loop is running (main's stall detection). */
  heartbeat: { params: Record<string, never>; result: null };
  /** Only when `ShardInit.debugFaults`: makes the shard fail (answered before it does). */
  fault: { params: { paneUid: number; fault: ShardFault }; result: null };
  /** Only when `ShardInit.debugFaults`: a full GC with the freed pages given back (`debug.inspect`); answers the heap then in use. */
  collect: { params: Record<string, never>; result: { heapUsedBytes: number } };
}

export type ShardRequestKind = keyof ShardRequests;

export type ToShard = {
  [K in ShardRequestKind]: { kind: K; reqId: number; params: ShardRequests[K]['params'] };
}[ShardRequestKind];

/** Changed facts about a pane; absent fields did not change. */
export interface PaneUpdate {
  paneUid: number;
  revision?: number;
  cwd?: string;
  cwdLabel?: string;
  /** The directory of the process in front when it is not the pane's own; null: the pane's own is in front again. */
  foregroundCwd?: string | null;
  title?: string;
  /** The view's scroll position (`pane_info.scroll`): sent when any of it changed, the history's growth included. */
  scroll?: ScrollPosition;
}

/** A pane's scroll position (herdr's PaneScrollInfo, in rows). */
export interface ScrollPosition {
  offsetFromBottom: number;
  maxOffsetFromBottom: number;
  viewportRows: number;
}

/** Where `pane.scroll` sends a pane's view: by rows or screens, to an end, or to an offset from the live bottom. */
export type ScrollMove =
  | { by: 'lines' | 'pages'; count: number; direction: 'up' | 'down' }
  | { to: 'top' | 'bottom' }
  | { offsetFromBottom: number };

export type FromShard =
  | { kind: 'reply'; reqId: number; result: unknown }
  | { kind: 'reply'; reqId: number; error: { code: ErrorCode; message: string } }
  | { kind: 'paneUpdates'; updates: PaneUpdate[] }
  | { kind: 'paneExited'; paneUid: number; exitCode: number; signal?: number }
  | ({ kind: 'matchChanged'; matcherId: number } & MatchChange)
  /** The pane's agent picture changed (agent absent: no agent any more). */
  /** `busyCount`: how many times the pane's agent turned working or blocked in the shard, this one included (SubmitResult.busyAtEnter). */
  | ({ kind: 'agentChanged'; paneUid: number; busyCount: number } & AgentPicture)
  /** The shell reported a finished command (OSC 133 D). */
  | { kind: 'commandFinished'; paneUid: number; exitCode: number }
  | ({ kind: 'notification'; paneUid: number } & PaneNotification)
  /** A streamed pane's output, as the program wrote it (only while `streamOpen`s are open). */
  | { kind: 'paneOutput'; paneUid: number; seq: number; bytes: Uint8Array }
  /** A streamed pane took a new size; output after it was written for that size. */
  | { kind: 'paneResized'; paneUid: number; seq: number; cols: number; rows: number }
  /**
   * The shard's thread is ending by its own `process.exit`. Its teardown waits for its
   * panes' processes (node-pty reaps them on threads of its own), so main ends them now
   * instead of learning of the exit only when the thread is gone.
   */
  | { kind: 'exiting'; code: number };

/** What a pane's agent is and does, and who says so (docs/protocol.md §10). */
export interface AgentPicture {
  agent?: string;
  state: AgentState;
  source?: AgentSource;
  message?: string;
  session?: AgentSession;
  /** Who reported the session: herdr's current `agent_session.source`. */
  sessionSource?: string;
}

/**
 * Why a pane's agent state is what it is (docs/protocol.md §13 `agent.explain`): the
 * layer in charge (a hook claim, a program status, the screen rules, or nothing), and
 * what it looked at.
 */
export interface AgentExplanation {
  /** The agent the foreground process is, by its process name (§10.1). */
  detected?: string;
  /** The terminal's foreground process group when last checked. */
  foregroundPgid?: number;
  decidedBy: 'hook' | 'status' | 'screen' | 'nothing';
  state: AgentState;
  /** Why the state is not what the deciding layer says of the pane alone (a hold, a blocked waiting for its menu, a terminal not read yet). */
  held?: string;
  hook?: { source: string; agent: string; state: AgentState; message?: string };
  status?: { state: AgentState; app?: string; message?: string };
  screen?: ScreenExplanation;
}

/** The screen rules of one agent applied to the screen now: every rule in order, the first that held decides. */
export interface ScreenExplanation {
  agent: string;
  /** The index of the rule that decided; absent: none held and the table's `otherwise` did. */
  matchedRule?: number;
  /** The state the rules give now, before a hold (claude's working hold) is applied. */
  rawState: AgentState;
  /** `unknown` for an agent with no screen rules (known by its process only). */
  otherwise: AgentState;
  rules: Array<{ index: number; state: AgentState; condition: string; matched: boolean; evidence: string[] }>;
}

/** A program asking for attention (docs/protocol.md §10.6). */
export interface PaneNotification {
  notification: NotificationKind;
  title?: string;
  body?: string;
}
