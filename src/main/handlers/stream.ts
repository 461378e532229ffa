/** `pane.stream` (docs/protocol.md §9.5): a pane's screen, then its output live, on a connection of its own. */
import type { Router } from '../router.js';
import type { Session } from '../session.js';

export function registerStreamHandlers(router: Router, session: Session): void {
  router.register('pane.stream', async (params, { connection, afterResponse }) => {
    // Its own connection, like a subscription: nothing after this request is read.
    connection.stopReading();
    try {
      const pane = session.registry.resolvePane(params.pane_id);
      const shard = session.shardOf(pane.workspace);
      const { stream, first } = session.streams.open(pane, shard, connection);
      const snapshot = await first.catch((error: unknown) => {
        stream.close();
        return session.paneGone(pane, error, 'pane_not_found');
      });
      connection.streaming = true;
      afterResponse(() => stream.start(snapshot));
      return {
        type: 'stream_started',
        ...session.streams.ref(pane.uid),
        stable_id: session.registry.paneIds(pane).stable_id,
        cols: snapshot.cols,
        rows: snapshot.rows,
        snapshot: snapshot.snapshot,
      };
    } catch (error) {
      afterResponse(() => connection.end());
      throw error;
    }
  });
}
