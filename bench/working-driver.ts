/**
 * The fleet-at-work bench's replayer (bench/scenarios/fleet-at-work.ts), a child process of
 * the bench talking over IPC. Each pane of the fleet runs `cat` of a FIFO of its own, under the
 * name of the agent it plays (a link named `claude` to cat: the host sees a process called
 * claude), with its terminal raw as the real CLI's is; this one process writes every pane's
 * recording (bench/fixtures/working) into its FIFO at the recorded pace. One Node process for
 * the fleet instead of one per pane: 300 Node processes would take 12 GB of this machine; the
 * host sees the same bytes at the same times from a process of the same name either way.
 *
 * Messages from the bench:
 *   {type: 'plan', recordings: [path…], panes: [{fifo, recording, offsetMs, works}…]}
 *       opens every FIFO (once its cat reads it) and draws each pane's first screen (its
 *       recording's snapshot: the CLI idle at its prompt); answers {type: 'open'}.
 *   {type: 'work'}  the working panes start: the recording up to the pane's offset at once (so
 *       its screen is what the CLI had drawn by then), then the rest at its pace, over and over
 *       (each loop begins with a reset and the snapshot again). Idle panes stay as they are.
 *   {type: 'stop'}  stops writing; answers {type: 'done', marks, lateP99, bytesPerSecond, writes}: how
 *       late its timers ran (p99, ms) and what it wrote at the recorded pace since 'work'.
 * A mark is [pane, state, epoch ms, 1]: the wall time just before a chunk that brought about a
 * state change in the recording was written (the bench matches it with the host's event), or
 * [pane, state, epoch ms, 0] for a chunk shortly before such a chunk (its `mayCause`).
 */
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { type WorkingRecording, type WorkingState, loadWorking } from './corpus/working.js';

export interface DriverPane {
  fifo: string;
  /** Index into the plan's recordings. */
  recording: number;
  /** Where in its recording the pane starts, ms. */
  offsetMs: number;
  /** False: the pane shows its idle prompt and prints nothing. */
  works: boolean;
}

export type DriverMessage =
  | { type: 'plan'; recordings: string[]; panes: DriverPane[] }
  | { type: 'work' }
  | { type: 'stop' };

export type DriverMark = [pane: number, state: WorkingState, epochMs: number, labelled: 0 | 1];

export type DriverReply =
  | { type: 'open' }
  | { type: 'done'; marks: DriverMark[]; lateP99: number; bytesPerSecond: number; writes: number }
  | { type: 'error'; message: string };

/** Before a loop's snapshot: back to the main screen, a soft reset (modes, margins, attributes), cleared. */
const LOOP_RESET = Buffer.from('\x1b[?1049l\x1b[!p\x1b[H\x1b[2J');
const OPEN_TIMEOUT_MS = 120_000;

const marks: DriverMark[] = [];
/** How late each timed write was, ms (the replay's own fidelity under load). */
const lateness: number[] = [];
/** Bytes written at the recorded pace (not the first screens and catch-ups), since work began. */
let pacedBytes = 0;
let writes = 0;
let workSince = 0;
let stopped = false;
const epochNow = () => performance.timeOrigin + performance.now();

class ReplayPane {
  private loopStart = 0;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly index: number,
    private readonly recording: WorkingRecording,
    private readonly socket: Socket,
  ) {
    socket.on('error', () => undefined); // its cat gone with the pane
  }

  private write(buffer: Buffer, paced = false): void {
    if (buffer.length === 0 || this.socket.destroyed) return;
    this.socket.write(buffer);
    if (paced) pacedBytes += buffer.length;
    writes++;
  }

  /** The CLI idle at its prompt. */
  drawIdle(): void {
    this.write(this.recording.snapshot);
  }

  /** From `offsetMs` into the recording: what came before it at once, then the rest at its pace. */
  start(offsetMs: number): void {
    const { chunks } = this.recording;
    let i = 0;
    const before: Buffer[] = [LOOP_RESET, this.recording.snapshot];
    while (i < chunks.length && (chunks[i]?.t ?? Infinity) < offsetMs) before.push((chunks[i++] as { bytes: Buffer }).bytes);
    this.write(Buffer.concat(before));
    this.loopStart = performance.now() - offsetMs;
    this.next = i;
    this.schedule();
  }

  private schedule(): void {
    if (stopped) return;
    const { chunks, header } = this.recording;
    const due = this.loopStart + (this.next < chunks.length ? (chunks[this.next]?.t ?? 0) : header.duration_ms);
    this.timer = setTimeout(() => this.fire(), Math.max(0, due - performance.now()));
  }

  private fire(): void {
    if (stopped) return;
    const { chunks, header } = this.recording;
    const now = performance.now();
    // Every chunk that is due, each as its own write, as the CLI wrote them.
    while (this.next < chunks.length) {
      const chunk = chunks[this.next] as WorkingRecording['chunks'][number];
      const due = this.loopStart + chunk.t;
      if (due > now) break;
      lateness.push(now - due);
      if (chunk.causes) marks.push([this.index, chunk.causes, epochNow(), 1]);
      else if (chunk.mayCause) marks.push([this.index, chunk.mayCause, epochNow(), 0]);
      this.write(chunk.bytes, true);
      this.next++;
    }
    if (this.next >= chunks.length && this.loopStart + header.duration_ms <= now) {
      // The loop's end: again from the snapshot.
      this.loopStart += header.duration_ms;
      this.next = 0;
      this.write(Buffer.concat([LOOP_RESET, this.recording.snapshot]), true);
    }
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.socket.destroy();
  }
}

/** A FIFO opened for writing once its reader (the pane's cat) has it open. */
async function openFifo(path: string, deadline: number): Promise<Socket> {
  for (;;) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      return new Socket({ fd, readable: false, writable: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const send = (reply: DriverReply) => process.send?.(reply);
let panes: ReplayPane[] = [];
let plan: DriverPane[] = [];

process.on('message', (message: DriverMessage) => {
  void (async () => {
    try {
      if (message.type === 'plan') {
        const recordings = message.recordings.map((path) => loadWorking(path));
        plan = message.panes;
        const deadline = Date.now() + OPEN_TIMEOUT_MS;
        const sockets = await Promise.all(plan.map((pane) => openFifo(pane.fifo, deadline)));
        panes = plan.map((pane, i) => new ReplayPane(i, recordings[pane.recording] as WorkingRecording, sockets[i] as Socket));
        for (const pane of panes) pane.drawIdle();
        send({ type: 'open' });
      } else if (message.type === 'work') {
        workSince = performance.now();
        plan.forEach((pane, i) => {
          if (pane.works) panes[i]?.start(pane.offsetMs);
        });
      } else {
        stopped = true;
        for (const pane of panes) pane.stop();
        const sorted = lateness.sort((a, b) => a - b);
        const lateP99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
        const seconds = (performance.now() - workSince) / 1000;
        // Disconnected once the reply is out: at 300 panes its marks fill the channel's buffer, and a
        // disconnect right after the send dropped it.
        process.send?.({ type: 'done', marks, lateP99, bytesPerSecond: workSince > 0 ? pacedBytes / seconds : 0, writes } satisfies DriverReply, () => process.disconnect());
      }
    } catch (error) {
      send({ type: 'error', message: String(error) });
    }
  })();
});
