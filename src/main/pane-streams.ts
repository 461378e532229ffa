/**
 * Every open `pane.stream`, by pane: a streamed pane's output arrives from its
 * shard once, becomes one line, and that line goes to each of its consumers
 * (pane-stream.ts decides, per consumer, whether it can take it). Panes nobody
 * streams are not known here, and their shards post no output at all.
 */
import { paneStreamLine } from '../protocol/pane-stream.js';
import type { PaneScreen } from '../protocol/thread.js';
import type { Connection } from './connection.js';
import { PaneStream } from './pane-stream.js';
import { type PaneRef, paneRef } from './ids.js';
import type { PaneRecord, Registry } from './registry.js';
import type { ShardHandle } from './shard-handle.js';

export class PaneStreams {
  private readonly byPane = new Map<number, Set<PaneStream>>();
  /** A streamed pane's ids as last seen: its last lines still name it after it left the registry. */
  private readonly refs = new Map<number, PaneRef>();

  constructor(private readonly registry: Registry) {}

  /** Open streams, for `server.stats`. */
  get count(): number {
    let count = 0;
    for (const streams of this.byPane.values()) count += streams.size;
    return count;
  }

  /**
   * A new consumer of `pane`: the shard starts handing on the pane's output
   * (until the stream closes) and answers with its screen. Output
   * that arrives meanwhile is held by the stream until `start`.
   */
  open(pane: PaneRecord, shard: ShardHandle, connection: Connection): { stream: PaneStream; first: Promise<PaneScreen> } {
    const paneUid = pane.uid;
    this.ref(paneUid);
    const stream = new PaneStream(paneUid, connection, {
      screen: () => shard.request('screen', { paneUid }),
      resyncLine: (screen) => paneStreamLine('pane.resync', { ...this.ref(paneUid), cols: screen.cols, rows: screen.rows, snapshot: screen.redraw }),
      closed: (closed) => {
        const streams = this.byPane.get(paneUid);
        streams?.delete(closed);
        if (streams?.size === 0) {
          this.byPane.delete(paneUid);
          this.refs.delete(paneUid);
        }
        void shard.request('streamClose', { paneUid }).catch(() => undefined);
      },
    });
    let streams = this.byPane.get(paneUid);
    if (!streams) this.byPane.set(paneUid, (streams = new Set()));
    streams.add(stream);
    return { stream, first: shard.request('streamOpen', { paneUid }) };
  }

  /** The pane's ids now (compact ids renumber), or as last seen. */
  ref(paneUid: number): PaneRef {
    const pane = this.registry.paneByUid(paneUid);
    if (pane) {
      const ref = paneRef(pane);
      this.refs.set(paneUid, ref);
      return ref;
    }
    return this.refs.get(paneUid) ?? { pane_id: '', workspace_id: '' };
  }

  output(paneUid: number, seq: number, bytes: Uint8Array): void {
    const streams = this.byPane.get(paneUid);
    if (!streams) return;
    const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    const line = paneStreamLine('pane.output', { ...this.ref(paneUid), bytes: base64 });
    for (const stream of streams) stream.deliver(seq, line);
  }

  resized(paneUid: number, seq: number, cols: number, rows: number): void {
    const streams = this.byPane.get(paneUid);
    if (!streams) return;
    const line = paneStreamLine('pane.resized', { ...this.ref(paneUid), cols, rows });
    for (const stream of streams) stream.deliver(seq, line);
  }

  /** The pane's program exited (or its shard died: no exit code): its streams end with `pane.exited`. */
  exited(paneUid: number, exit: { exit_code?: number; signal?: number }): void {
    const streams = this.byPane.get(paneUid);
    if (!streams) return;
    const line = paneStreamLine('pane.exited', { ...this.ref(paneUid), ...exit });
    for (const stream of [...streams]) stream.end(line);
  }
}
