/**
 * The names herdr's current protocol defines, as facts taken from herdr's published API
 * schema (protocol 20, `schemas.request.oneOf` and the event enums) and from what clients
 * of protocol 22 send that the schema does not list yet. Kept here as literals so the
 * wire test (test/herdr-wire.test.ts) runs where only this repository is.
 */

/** Every method of herdr's published schema, in the schema's order. */
export const HERDR_SCHEMA_METHODS = [
  'ping', 'server.stop', 'server.live_handoff', 'server.reload_config', 'server.agent_manifests',
  'server.reload_agent_manifests', 'notification.show', 'client.window_title.set', 'client.window_title.clear',
  'session.snapshot', 'workspace.create', 'workspace.list', 'workspace.get', 'workspace.focus', 'workspace.rename',
  'workspace.move', 'workspace.move_block', 'workspace.report_metadata', 'workspace.close', 'worktree.list',
  'worktree.create', 'worktree.open', 'worktree.remove', 'tab.create', 'tab.list', 'tab.get', 'tab.focus',
  'tab.rename', 'tab.move', 'tab.close', 'agent.list', 'agent.get', 'agent.read', 'agent.explain',
  'agent.send_keys', 'agent.rename', 'agent.view.set', 'agent.view.clear', 'agent.focus', 'agent.start',
  'agent.prompt', 'agent.wait', 'pane.split', 'pane.swap', 'pane.move', 'pane.zoom', 'pane.layout',
  'pane.process_info', 'layout.export', 'layout.apply', 'layout.set_split_ratio', 'pane.neighbor', 'pane.edges',
  'pane.focus_direction', 'pane.resize', 'pane.list', 'pane.current', 'pane.get', 'pane.focus', 'pane.input.set',
  'pane.rename', 'pane.send_text', 'pane.send_keys', 'pane.send_input', 'pane.read', 'pane.graphics.set',
  'pane.graphics.clear', 'pane.graphics.info', 'pane.report_agent', 'pane.report_agent_session',
  'pane.report_metadata', 'pane.clear_agent_authority', 'pane.release_agent', 'pane.close', 'popup.close',
  'events.subscribe', 'events.wait', 'pane.wait_for_output', 'integration.install', 'integration.uninstall',
  'plugin.link', 'plugin.list', 'plugin.unlink', 'plugin.enable', 'plugin.disable', 'plugin.action.list',
  'plugin.action.invoke', 'plugin.log.list', 'plugin.pane.open', 'plugin.pane.focus', 'plugin.pane.close',
] as const;

/** Methods protocol 22's clients send that the published schema (protocol 20) does not describe. */
export const HERDR_PROTOCOL_22_METHODS = ['pane.scroll', 'pane.selection.read', 'integration.list'] as const;

export const HERDR_METHODS = [...HERDR_SCHEMA_METHODS, ...HERDR_PROTOCOL_22_METHODS] as const;
export type HerdrMethod = (typeof HERDR_METHODS)[number];

/** The `type` of every entry `events.subscribe` takes (herdr's `Subscription`). */
export const HERDR_SUBSCRIPTION_KINDS = [
  'workspace.created', 'workspace.updated', 'workspace.metadata_updated', 'workspace.renamed', 'workspace.moved',
  'workspace.reordered', 'workspace.closed', 'workspace.focused', 'worktree.created', 'worktree.opened',
  'worktree.removed', 'tab.created', 'tab.closed', 'tab.focused', 'tab.renamed', 'tab.moved', 'pane.created',
  'pane.closed', 'pane.updated', 'pane.focused', 'pane.moved', 'pane.exited', 'pane.agent_detected',
  'pane.output_matched', 'pane.agent_status_changed', 'pane.scroll_changed', 'layout.updated',
] as const;
export type HerdrSubscriptionKind = (typeof HERDR_SUBSCRIPTION_KINDS)[number];

/** herdr's `EventKind`: the names of its event envelopes (`{event, data: {type, …}}`). */
export const HERDR_EVENT_KINDS = [
  'workspace_created', 'workspace_updated', 'workspace_metadata_updated', 'workspace_closed', 'workspace_renamed',
  'workspace_moved', 'workspace_reordered', 'workspace_focused', 'worktree_created', 'worktree_opened',
  'worktree_removed', 'tab_created', 'tab_closed', 'tab_renamed', 'tab_moved', 'tab_focused', 'pane_created',
  'pane_closed', 'pane_updated', 'pane_focused', 'pane_moved', 'pane_output_changed', 'pane_exited',
  'pane_agent_detected', 'pane_agent_status_changed', 'layout_updated',
] as const;
export type HerdrEventKind = (typeof HERDR_EVENT_KINDS)[number];

/** herdr's `SubscriptionEventKind`: the lines that keep their dotted name and carry no `type`. */
export const HERDR_SUBSCRIPTION_EVENT_KINDS = ['pane.output_matched', 'pane.agent_status_changed', 'pane.scroll_changed'] as const;

/** The `event` of herdr's `EventMatch`, what `events.wait` is asked to match. */
export const HERDR_WAIT_MATCH_EVENTS = [
  'workspace_created', 'workspace_updated', 'workspace_closed', 'workspace_renamed', 'workspace_moved',
  'workspace_focused', 'tab_created', 'tab_closed', 'tab_renamed', 'tab_moved', 'tab_focused', 'pane_created',
  'pane_closed', 'pane_focused', 'pane_moved', 'pane_output_changed', 'pane_exited', 'pane_agent_detected',
  'pane_agent_status_changed',
] as const;
export type HerdrWaitMatchEvent = (typeof HERDR_WAIT_MATCH_EVENTS)[number];
