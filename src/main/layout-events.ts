/**
 * herdr's `layout_updated` (docs/protocol.md §9.2): told with the tab's flat layout
 * whenever a tab's tree, zoom or ratios changed: a split, a pane gone from a tab that
 * stays, a new tab or workspace, a swap, a move, a zoom, a ratio, a border, a layout applied.
 */
import type { PaneLayoutSnapshot } from '../protocol/pane-layout.js';
import type { EventBatch } from './event-hub.js';
import { flatLayout } from './flat-layout.js';
import { workspaceMeta } from './ids.js';
import type { Registry, TabRecord } from './registry.js';

/** Adds the tab's `layout_updated` to the batch; the layout it told. */
export function addLayoutUpdated(registry: Registry, tab: TabRecord, batch: EventBatch): PaneLayoutSnapshot {
  const layout = flatLayout(registry, tab);
  batch.add('layout_updated', { layout }, workspaceMeta(tab.workspace));
  return layout;
}
