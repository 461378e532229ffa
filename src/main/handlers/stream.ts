/** `pane.stream` (docs/protocol.md §9.5): a pane's screen, then its output live, on a connection of its own. */
import type { Router } from '../router.js';
import { lookedAt } from '../agents/agent-status.js';
import { paneIds } from '../ids.js';
import type { PaneShards } from '../pane-shards.js';
import type { PaneStreams } from '../pane-streams.js';
import type { Registry } from '../registry.js';

export function registerStreamHandlers(router: Router, { registry, shards, streams }: { registry: Registry; shards: PaneShards; streams: PaneStreams }): void {
  router.register('pane.stream', async (params, { connection, afterResponse, batch }) => {
    // Its own connection, like a subscription: nothing after this request is read.
    connection.stopReading();
    try {
      const pane = registry.resolvePane(params.pane_id);
      const shard = shards.of(pane);
      const { stream, first } = streams.open(pane, shard, connection);
      const screen = await first.catch((error: unknown) => {
        stream.close();
        return shards.refused(pane, error, 'pane_not_found');
      });
      connection.streaming = true;
      // An attach is a look: a `done` agent is `idle` from here. A tile on a dashboard is only a glance.
      if (params.look !== false) lookedAt(pane, batch);
      afterResponse(() => stream.start(screen));
      return {
        type: 'stream_started',
        ...streams.ref(pane.uid),
        stable_id: paneIds(pane).stable_id,
        cols: screen.cols,
        rows: screen.rows,
        snapshot: screen.redraw,
      };
    } catch (error) {
      afterResponse(() => connection.end());
      throw error;
    }
  });
}
