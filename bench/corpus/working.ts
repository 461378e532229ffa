/**
 * Recordings of real agent CLIs at work (bench/fixtures/working, made by
 * bench/tools/record-working.ts): what each CLI wrote to its terminal over a
 * few whole turns, chunk by chunk with its time, and the agent states herdr
 * saw on the way. The fleet-at-work bench replays them at their own pace.
 *
 * A file is gzipped JSON lines (`<agent>.jsonl.gz`; 12–60 KB each). The first is the header:
 *   {"agent", "package", "version", "cols", "rows", "recorded", "duration_ms", "turns", "snapshot"}
 * where `snapshot` (base64) redraws the screen as it was when the recording
 * began (the CLI idle at its prompt: pane.stream's ack). Then, in time order,
 *   {"t": ms, "b": base64}                  what the CLI wrote, as the server read it
 *   {"t": ms, "state": s, "status": s}      a pane.agent_state_changed event
 * with `t` in milliseconds since the snapshot.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from '../../harness/server.js';
import { withoutQueries } from './corpora.js';

export const WORKING_DIR = join(REPO_ROOT, 'bench', 'fixtures', 'working');

export type WorkingState = 'idle' | 'working' | 'blocked' | 'unknown';

export interface WorkingHeader {
  agent: string;
  package: string;
  version: string;
  cols: number;
  rows: number;
  /** ISO date of the recording. */
  recorded: string;
  /** From the snapshot to the end of the recording (the idle tail included). */
  duration_ms: number;
  /** What each turn was: the prompt and what the scripted model did. */
  turns: string[];
  snapshot: string;
}

export interface WorkingChunk {
  /** Milliseconds since the snapshot. */
  t: number;
  bytes: Buffer;
  /**
   * The agent state this chunk brought about, where the recording saw one: the last chunk the
   * server had written out before the state event, or up to CAUSE_SLACK_MS after it.
   */
  causes?: WorkingState;
  /**
   * A chunk shortly before a `causes` chunk (within CANDIDATE_MS): the state may come from it
   * instead. herdr looks at a pane that keeps changing once per 16 ms, so a state on the screen
   * after this chunk may be seen (and evented) only after the next one arrived; in a replay the
   * event may then come before the labelled chunk is written.
   */
  mayCause?: WorkingState;
}

export interface WorkingRecording {
  name: string;
  header: WorkingHeader;
  snapshot: Buffer;
  chunks: WorkingChunk[];
  /** The state events as recorded (time, state). */
  states: Array<{ t: number; state: WorkingState; status: string }>;
}

/**
 * A state event may be read before the chunk that caused it: herdr handles a status sequence
 * (OSC 7501) before it parses and forwards the read that holds it, so its event can go out first.
 */
const CAUSE_SLACK_MS = 3;
/** How far before a `causes` chunk a chunk may have been the cause (two of herdr's 16 ms evaluation intervals). */
export const CANDIDATE_MS = 32;

type Line = { t: number; b: string } | { t: number; state: WorkingState; status: string };

/** Parses one recording file; terminal queries are taken out (a replay must not ask: see corpora.ts). */
export function parseWorking(name: string, text: string): WorkingRecording {
  const [first, ...rest] = text.split('\n').filter((line) => line.trim() !== '');
  if (!first) throw new Error(`${name}: empty recording`);
  const header = JSON.parse(first) as WorkingHeader;
  const chunks: WorkingChunk[] = [];
  const states: WorkingRecording['states'] = [];
  for (const raw of rest) {
    const line = JSON.parse(raw) as Line;
    if ('b' in line) chunks.push({ t: line.t, bytes: withoutQueries(Buffer.from(line.b, 'base64')) });
    else states.push({ t: line.t, state: line.state, status: line.status });
  }
  // Each change of state is put on the chunk that brought it about (a chunk that was only queries is none).
  const written = chunks.filter((chunk) => chunk.bytes.length > 0);
  let previous: WorkingState | undefined;
  for (const event of states) {
    if (event.state === previous) continue;
    previous = event.state;
    let cause = -1;
    for (let i = 0; i < written.length && (written[i]?.t ?? Infinity) <= event.t + CAUSE_SLACK_MS; i++) cause = i;
    const chunk = written[cause];
    if (!chunk) continue;
    chunk.causes = event.state;
    for (let i = cause - 1; i >= 0 && chunk.t - (written[i]?.t ?? -Infinity) <= CANDIDATE_MS; i--) {
      const before = written[i] as WorkingChunk;
      if (before.causes === undefined) before.mayCause = event.state;
    }
  }
  return { name, header, snapshot: withoutQueries(Buffer.from(header.snapshot, 'base64')), chunks: written, states };
}

const RECORDING_FILE = /\.jsonl(\.gz)?$/;

export function loadWorking(path: string): WorkingRecording {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(RECORDING_FILE, '');
  const raw = readFileSync(path);
  return parseWorking(name, (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
}

/** The files of the recordings in `dir`. */
export function workingFiles(dir = WORKING_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => RECORDING_FILE.test(file))
    .sort()
    .map((file) => join(dir, file));
}

/** Every recording in bench/fixtures/working, by name. */
export function workingRecordings(dir = WORKING_DIR): WorkingRecording[] {
  return workingFiles(dir).map((path) => loadWorking(path));
}

/** The state the recording was in at `t` (idle before its first event). */
export function stateAt(recording: WorkingRecording, t: number): WorkingState {
  let state: WorkingState = 'idle';
  for (const event of recording.states) {
    if (event.t > t) break;
    state = event.state;
  }
  return state;
}

export interface WorkingStats {
  seconds: number;
  bytes: number;
  chunks: number;
  /** Bytes per second over the whole recording. */
  bytesPerSecond: number;
  /** Seconds the agent was working or blocked (by the recorded states). */
  busySeconds: number;
  /** Chunks per second while it worked: how often it redraws (spinner, timer, streamed text). */
  chunksPerBusySecond: number;
  /** Distinct chunks among all (a redraw of the same frame is the same bytes). */
  distinctChunks: number;
  /** Chunks holding a spinner glyph, and the distinct spinner glyphs seen. */
  spinnerChunks: number;
  spinnerGlyphs: number;
  /** The longest chunk, in bytes. */
  largestChunk: number;
  /** Times the recording entered each state. */
  entered: Partial<Record<WorkingState, number>>;
  /** Chunks labelled with the state they cause. */
  causes: number;
}

/** Braille spinners (gemini, qwen, codex's, pi), claude's stars and dots, opencode's blocks and bars. */
const SPINNER = /[\u2800-\u28ff✻✶✳✢✽·◐◓◑◒•◦■⬝▪]/gu;

export function workingStats(recording: WorkingRecording): WorkingStats {
  const { chunks } = recording;
  const seconds = recording.header.duration_ms / 1000;
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes.length, 0);
  let busyMs = 0;
  let busyChunks = 0;
  let since: number | undefined;
  let state: WorkingState = 'idle';
  for (const event of [...recording.states, { t: recording.header.duration_ms, state: 'idle' as const, status: 'end' }]) {
    const busy = state === 'working' || state === 'blocked';
    if (busy && since !== undefined) busyMs += event.t - since;
    state = event.state;
    since = event.t;
  }
  for (const chunk of chunks) {
    const at = stateAt(recording, chunk.t);
    if (at === 'working' || at === 'blocked') busyChunks++;
  }
  const glyphs = new Set<string>();
  let spinnerChunks = 0;
  for (const chunk of chunks) {
    const found = chunk.bytes.toString('utf8').match(SPINNER);
    if (!found) continue;
    spinnerChunks++;
    for (const glyph of found) glyphs.add(glyph);
  }
  const entered: WorkingStats['entered'] = {};
  let previous: WorkingState | undefined;
  for (const event of recording.states) {
    if (event.state !== previous) entered[event.state] = (entered[event.state] ?? 0) + 1;
    previous = event.state;
  }
  return {
    seconds,
    bytes,
    chunks: chunks.length,
    bytesPerSecond: bytes / seconds,
    busySeconds: busyMs / 1000,
    chunksPerBusySecond: busyMs > 0 ? busyChunks / (busyMs / 1000) : 0,
    distinctChunks: new Set(chunks.map((chunk) => chunk.bytes.toString('latin1'))).size,
    spinnerChunks,
    spinnerGlyphs: glyphs.size,
    largestChunk: Math.max(0, ...chunks.map((chunk) => chunk.bytes.length)),
    entered,
    causes: chunks.filter((chunk) => chunk.causes !== undefined).length,
  };
}
