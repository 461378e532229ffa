/** `pane.stream` on a connection of its own: the pane's screen, then its output, resizes, resyncs and exit. */
import type { PaneStreamLine, PaneStreamStarted } from '../protocol/pane-stream.js';
import { ServerStream, type StreamRequest } from './server-stream.js';
import { type Dialer, asDialer } from './transport.js';

export class PaneOutputStream extends ServerStream<PaneStreamLine> {
  /** The ack: the pane's ids and size, and its screen as escape sequences when the stream began. */
  started!: PaneStreamStarted;

  /** `look: false`: a glance that leaves a `done` agent `done` (docs/protocol.md §9.5). */
  static async open(target: string | Dialer, paneId: string, options: { id?: string; look?: boolean } = {}): Promise<PaneOutputStream> {
    const params = options.look === undefined ? { pane_id: paneId } : { pane_id: paneId, look: options.look };
    const request: StreamRequest<'pane.stream'> = { id: options.id ?? 'stream', method: 'pane.stream', params };
    const { stream, ack } = await ServerStream.connect<'pane.stream', PaneStreamLine, PaneOutputStream>(asDialer(target), request, (socket) => new PaneOutputStream(socket));
    stream.started = ack;
    return stream;
  }
}
