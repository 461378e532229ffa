/**
 * herdr's `pane.updated` and `workspace.metadata_updated` (docs/protocol.md §9.2), built
 * from the registry's records for the several places that cause them. Each helper adds
 * the event to a sink: a request's batch (sent after the answer, §9.3) or, for a change
 * no request made (a TTL, a shard's report), the hub at once (`hubSink`). Other events
 * are added where they happen, with `EventBatch.addEvent` / `EventHub.publishEvent`.
 */
import type { EventName, Events } from '../protocol/events.js';
import type { EventHub } from './event-hub.js';
import { type EventMeta, paneMeta, workspaceMeta } from './ids.js';
import type { PaneRecord, Registry, WorkspaceRecord } from './registry.js';
import { paneInfo, workspaceInfo } from './wire-views.js';

/** Where an event goes. */
export interface EventSink {
  addEvent<E extends EventName>(event: E, data: Events[E], meta?: EventMeta): void;
}

/** The hub as a sink: published at once. */
export function hubSink(hub: EventHub): EventSink {
  return { addEvent: (event, data, meta) => void hub.publishEvent(event, data, meta) };
}

/** What pane_info shows changed: its terminal's title, its label, reported metadata, its agent's name. */
export function paneUpdated(registry: Registry, pane: PaneRecord, to: EventSink): void {
  to.addEvent('pane_updated', { pane: paneInfo(registry, pane) }, paneMeta(pane));
}

/** The tokens reported for a workspace changed. */
export function workspaceMetadataUpdated(registry: Registry, workspace: WorkspaceRecord, to: EventSink): void {
  to.addEvent('workspace_metadata_updated', { workspace: workspaceInfo(registry, workspace) }, workspaceMeta(workspace));
}
