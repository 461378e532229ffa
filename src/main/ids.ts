/**
 * How the wire names workspaces and panes (docs/protocol.md §3): compact ids
 * ("2", "2-3") are positions, renumbered when something closes; stable ids
 * ("w2", "w2:p7") are uids, never reused. Pure: the registry resolves with
 * these, events and answers print with them.
 */

/** A workspace or pane id as a client wrote it, before it is looked up. */
export type ParsedWorkspaceId = { kind: 'position'; position: number } | { kind: 'uid'; uid: number };
export type ParsedPaneId =
  | { kind: 'position'; workspacePosition: number; paneNumber: number }
  | { kind: 'uid'; workspaceUid: number; paneUid: number };

const COMPACT_NUMBER = /^[1-9]\d*$/;
const STABLE_WORKSPACE = /^w([1-9]\d*)$/;
const COMPACT_PANE = /^([1-9]\d*)-([1-9]\d*)$/;
const STABLE_PANE = /^w([1-9]\d*):p([1-9]\d*)$/;

export function workspaceStableId(workspaceUid: number): string {
  return `w${workspaceUid}`;
}

export function paneStableId(workspaceUid: number, paneUid: number): string {
  return `${workspaceStableId(workspaceUid)}:p${paneUid}`;
}

export function parseWorkspaceId(id: string): ParsedWorkspaceId | undefined {
  if (COMPACT_NUMBER.test(id)) return { kind: 'position', position: Number(id) };
  const stable = STABLE_WORKSPACE.exec(id);
  return stable ? { kind: 'uid', uid: Number(stable[1]) } : undefined;
}

export function parsePaneId(id: string): ParsedPaneId | undefined {
  const compact = COMPACT_PANE.exec(id);
  if (compact) return { kind: 'position', workspacePosition: Number(compact[1]), paneNumber: Number(compact[2]) };
  const stable = STABLE_PANE.exec(id);
  return stable ? { kind: 'uid', workspaceUid: Number(stable[1]), paneUid: Number(stable[2]) } : undefined;
}

/** What ids need of a pane: where it is now and what it is for good. */
export interface PanePlace {
  readonly uid: number;
  readonly number: number;
  readonly workspace: { readonly uid: number; readonly position: number };
}

/** Ids of a pane as the wire shows them. */
export interface PaneIds {
  pane_id: string;
  workspace_id: string;
  stable_id: string;
}

/** The pair every pane event and answer carries. */
export interface PaneRef {
  pane_id: string;
  workspace_id: string;
}

/** What the wire line does not say but subscribers need: which pane or workspace it is, for good. */
export interface EventMeta {
  paneUid?: number;
  paneStableId?: string;
  workspaceStableId?: string;
}

export function paneIds(pane: PanePlace): PaneIds {
  return {
    pane_id: `${pane.workspace.position}-${pane.number}`,
    workspace_id: String(pane.workspace.position),
    stable_id: paneStableId(pane.workspace.uid, pane.uid),
  };
}

export function paneRef(pane: PanePlace): PaneRef {
  return { pane_id: `${pane.workspace.position}-${pane.number}`, workspace_id: String(pane.workspace.position) };
}

export function paneMeta(pane: PanePlace): EventMeta {
  return { paneUid: pane.uid, paneStableId: paneStableId(pane.workspace.uid, pane.uid), workspaceStableId: workspaceStableId(pane.workspace.uid) };
}

export function workspaceMeta(workspace: { readonly uid: number }): EventMeta {
  return { workspaceStableId: workspaceStableId(workspace.uid) };
}
