/**
 * The focus events a change caused: `workspace_focused`, `tab_focused` (when the active
 * tab changed), then `pane_focused`, only when the focus moved.
 */
import type { EventBatch } from './event-hub.js';
import { paneMeta, paneRef, tabRef, workspaceMeta, workspaceRef } from './ids.js';
import type { Registry } from './registry.js';

/** The (workspace, tab) part of a focus key (registry.focusKey). */
const tabPart = (key: string) => key.slice(0, key.lastIndexOf(':'));

/** Adds the focus events for a change made since the registry's focus key was `before`. */
export function addFocusEvents(registry: Registry, before: string, batch: EventBatch): void {
  const after = registry.focusKey();
  if (after === before) return;
  const workspace = registry.activeWorkspace;
  if (!workspace) return;
  batch.add('workspace_focused', workspaceRef(workspace), workspaceMeta(workspace));
  if (tabPart(after) !== tabPart(before)) batch.add('tab_focused', tabRef(workspace.activeTab), workspaceMeta(workspace));
  const pane = registry.focusedPaneOf(workspace);
  if (pane) batch.add('pane_focused', paneRef(pane), paneMeta(pane));
}

/** Runs `change`; adds the focus events it caused to `batch`. */
export function withFocusEvents<T>(registry: Registry, batch: EventBatch, change: () => T): T {
  const before = registry.focusKey();
  const result = change();
  addFocusEvents(registry, before, batch);
  return result;
}
