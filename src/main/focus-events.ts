/** The focus events a change caused: `workspace_focused`, then `pane_focused`, only when the focus moved. */
import type { EventBatch } from './event-hub.js';
import { paneMeta, paneRef, workspaceMeta, workspaceRef } from './ids.js';
import type { Registry } from './registry.js';

/** Adds the focus events for a change made since the registry's focus key was `before`. */
export function addFocusEvents(registry: Registry, before: string, batch: EventBatch): void {
  if (registry.focusKey() === before) return;
  const workspace = registry.activeWorkspace;
  if (!workspace) return;
  batch.add('workspace_focused', workspaceRef(workspace), workspaceMeta(workspace));
  const pane = registry.paneByUid(workspace.focusedPaneUid);
  if (pane) batch.add('pane_focused', paneRef(pane), paneMeta(pane));
}

/** Runs `change`; adds the focus events it caused to `batch`. */
export function withFocusEvents<T>(registry: Registry, batch: EventBatch, change: () => T): T {
  const before = registry.focusKey();
  const result = change();
  addFocusEvents(registry, before, batch);
  return result;
}
