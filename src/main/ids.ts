/**
 * How the wire names workspaces and panes (docs/protocol.md §3): compact ids
 * ("2", "2-3") are positions, renumbered when something closes; stable ids
 * ("w2", "w2:p7": the workspace's uid, the pane's number in its workspace) are
 * never reused. Pure: the registry resolves with these, events and answers
 * print with them.
 */

import { type ErrorCode, ProtocolError } from '../protocol/errors.js';

/** A workspace or pane id as a client wrote it, before it is looked up. */
export type ParsedWorkspaceId = { kind: 'position'; position: number } | { kind: 'uid'; uid: number };
export type ParsedPaneId =
  | { kind: 'position'; workspacePosition: number; paneNumber: number }
  | { kind: 'uid'; workspaceUid: number; stableNumber: number };

const COMPACT_NUMBER = /^[1-9]\d*$/;
const STABLE_WORKSPACE = /^w([1-9]\d*)$/;
const COMPACT_PANE = /^([1-9]\d*)-([1-9]\d*)$/;
const STABLE_PANE = /^w([1-9]\d*):p([1-9]\d*)$/;
const TAB = /^w([1-9]\d*):t([1-9]\d*)$/;

export function workspaceStableId(workspaceUid: number): string {
  return `w${workspaceUid}`;
}

/** `w<workspace uid>:p<N>`, N counting the workspace's panes (docs/protocol.md §3). */
export function paneStableId(workspaceUid: number, stableNumber: number): string {
  return `${workspaceStableId(workspaceUid)}:p${stableNumber}`;
}

/** A tab's id: herdr's `w<workspace>:t<tab>`, the only form tabs have (docs/protocol.md §5.3). */
export function tabStableId(workspaceUid: number, tabUid: number): string {
  return `${workspaceStableId(workspaceUid)}:t${tabUid}`;
}

export function parseTabId(id: string): { workspaceUid: number; tabUid: number } | undefined {
  const tab = TAB.exec(id);
  return tab ? { workspaceUid: Number(tab[1]), tabUid: Number(tab[2]) } : undefined;
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
  return stable ? { kind: 'uid', workspaceUid: Number(stable[1]), stableNumber: Number(stable[2]) } : undefined;
}

/** A pane's two keys, handed out before it starts: the server-wide uid and the stable number in its workspace. */
export interface PaneKey {
  readonly uid: number;
  readonly stableNumber: number;
}

/** What ids need of a pane: where it is now and what it is for good. */
export interface PanePlace {
  readonly uid: number;
  readonly stableNumber: number;
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
    stable_id: paneStableId(pane.workspace.uid, pane.stableNumber),
  };
}

/**
 * What a current-dialect client sees in place of some of an object's fields
 * (docs/protocol.md §15.2): its stable ids for the compact ones, and the few fields the
 * two herdrs define differently (`undefined` leaves one out). They ride under a symbol,
 * which JSON.stringify leaves out, so what a 0.2.0 client receives is byte for byte what
 * it was; wire-json.ts swaps them in for a current client. Object spread copies them along.
 */
export const CURRENT_VIEW: unique symbol = Symbol('herdr.current-view');
export type CurrentView = Readonly<Record<string, unknown>>;

export function withCurrentView<T extends object>(value: T, current: CurrentView): T {
  (value as T & { [CURRENT_VIEW]?: CurrentView })[CURRENT_VIEW] = current;
  return value;
}

export function currentViewOf(value: object): CurrentView | undefined {
  return (value as { [CURRENT_VIEW]?: CurrentView })[CURRENT_VIEW];
}

/** A pane's stable ids under the names `pane_id` and `workspace_id`. */
export function currentPaneIds(pane: PanePlace): { pane_id: string; workspace_id: string } {
  return { pane_id: paneStableId(pane.workspace.uid, pane.stableNumber), workspace_id: workspaceStableId(pane.workspace.uid) };
}

export function paneRef(pane: PanePlace): PaneRef {
  return withCurrentView(
    { pane_id: `${pane.workspace.position}-${pane.number}`, workspace_id: String(pane.workspace.position) },
    currentPaneIds(pane),
  );
}

/** `{tab_id, workspace_id}` as tab events name a tab. */
export function tabRef(tab: { readonly uid: number; readonly workspace: { readonly uid: number; readonly position: number } }): { tab_id: string; workspace_id: string } {
  return withCurrentView(
    { tab_id: tabStableId(tab.workspace.uid, tab.uid), workspace_id: String(tab.workspace.position) },
    { workspace_id: workspaceStableId(tab.workspace.uid) },
  );
}

/** `{workspace_id}` as events and answers name a workspace. */
export function workspaceRef(workspace: { readonly uid: number; readonly position: number }): { workspace_id: string } {
  return withCurrentView({ workspace_id: String(workspace.position) }, { workspace_id: workspaceStableId(workspace.uid) });
}

type WorkspacePlace = PanePlace['workspace'];

/** A pane or workspace as a message names it in one dialect. */
export type IdNamer = (place: PanePlace | WorkspacePlace) => string;

/**
 * An error whose message names a pane or workspace the server picked (an agent found by its
 * name, a pane a turn waits on), not an id the request wrote (messages quote those as sent):
 * made with compact and with stable ids, and router.ts answers the form the request's own
 * ids call for (docs/protocol.md §3, "the id a person sees").
 */
export function errorNaming(code: ErrorCode, message: (name: IdNamer) => string): ProtocolError {
  return new ProtocolError(
    code,
    message((place) => ('stableNumber' in place ? paneIds(place).pane_id : String(place.position))),
    message((place) => ('stableNumber' in place ? paneStableId(place.workspace.uid, place.stableNumber) : workspaceStableId(place.uid))),
  );
}

export function paneMeta(pane: PanePlace): EventMeta {
  return { paneUid: pane.uid, paneStableId: paneStableId(pane.workspace.uid, pane.stableNumber), workspaceStableId: workspaceStableId(pane.workspace.uid) };
}

export function workspaceMeta(workspace: { readonly uid: number }): EventMeta {
  return { workspaceStableId: workspaceStableId(workspace.uid) };
}
