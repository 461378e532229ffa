/**
 * Layout and navigation in herdr's current protocol (docs/protocol.md §5.4): a tab's
 * drawn layout, its panes' neighbours and edges, focus by pane and by direction, swapping,
 * zooming and moving panes, reordering tabs and workspaces, a split's ratio, and (ours) a
 * pane's scroll position. Shapes as herdr's schema defines them; spread into `METHODS`.
 */
import { z } from 'zod';
import { PANE_DIRECTIONS, SPLIT_DIRECTIONS } from '../enums.js';
import { layoutDescriptionSchema } from '../layout-tree.js';
import { paneInfoSchema, tabInfoSchema, workspaceInfoSchema } from '../objects.js';
import { optional } from '../optional.js';
import { paneLayoutSnapshotSchema } from '../pane-layout.js';
import { paneScrollParams, paneScrollResult } from '../pane-scroll.js';
import { type MethodEntry, label, paneId, workspaceId } from '../params.js';
import { tabId } from './tabs.js';

const somePane = optional(paneId).describe('default: the focused pane of the active workspace');
const direction = z.enum(PANE_DIRECTIONS);
/** A place in a list: 0 is first, the list's length is after the last. */
const insertIndex = z.number().int().min(0).describe('the position it takes in the list as it is now (0: first; the length: last)');

export const PANE_ZOOM_MODES = ['toggle', 'on', 'off'] as const;

const moveDestination = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('tab'),
    tab_id: tabId,
    target_pane_id: optional(paneId).describe('the pane of that tab it is put beside (default: the tab\'s focused pane)'),
    split: z.enum(SPLIT_DIRECTIONS).describe('right: beside the target; down: below it'),
    ratio: optional(z.number()).describe('the target\'s share, kept within 0.1–0.9 (default 0.5)'),
  }),
  z.object({
    type: z.literal('new_tab'),
    workspace_id: optional(workspaceId).describe('default: the pane\'s own workspace'),
    label: optional(label),
  }),
  z.object({
    type: z.literal('new_workspace'),
    label: optional(label),
    tab_label: optional(label),
  }),
]);

const workspaceList = z.object({ type: z.literal('workspace_list'), workspaces: z.array(workspaceInfoSchema) });

export const NAVIGATION_METHODS = {
  'pane.layout': {
    params: z.object({ pane_id: somePane }),
    result: z.object({ type: z.literal('pane_layout'), layout: paneLayoutSnapshotSchema }),
    changesState: false,
  },
  'pane.edges': {
    params: z.object({ pane_id: somePane }),
    result: z.object({
      type: z.literal('pane_edges'),
      edges: z.object({
        pane_id: z.string(),
        left: z.boolean().describe('its left side is on the tab\'s outer edge'),
        right: z.boolean(),
        up: z.boolean(),
        down: z.boolean(),
        layout: paneLayoutSnapshotSchema,
      }),
    }),
    changesState: false,
  },
  'pane.neighbor': {
    params: z.object({ pane_id: somePane, direction }),
    result: z.object({
      type: z.literal('pane_neighbor'),
      neighbor: z.object({
        pane_id: z.string(),
        direction,
        neighbor_pane_id: z.string().optional().describe('absent at the tab\'s outer edge'),
        layout: paneLayoutSnapshotSchema,
      }),
    }),
    changesState: false,
  },
  'pane.focus': {
    params: z.object({ pane_id: paneId }),
    result: z.object({ type: z.literal('pane_info'), pane: paneInfoSchema }),
    changesState: true,
  },
  'pane.focus_direction': {
    params: z.object({ pane_id: somePane, direction }),
    result: z.object({
      type: z.literal('pane_focus_direction'),
      focus: z.object({
        changed: z.boolean(),
        reason: z.literal('no_neighbor').optional(),
        source_pane_id: z.string(),
        focused_pane_id: z.string().optional().describe('the focused pane of the source\'s tab after the move'),
        layout: paneLayoutSnapshotSchema,
      }),
    }),
    changesState: true,
  },
  'pane.swap': {
    params: z.object({
      pane_id: somePane.describe('with direction: the pane that moves (default: the focused pane)'),
      direction: optional(direction).describe('swap with the neighbour that way; or name source_pane_id and target_pane_id'),
      source_pane_id: optional(paneId),
      target_pane_id: optional(paneId),
    }),
    result: z.object({
      type: z.literal('pane_swap'),
      swap: z.object({
        changed: z.boolean(),
        reason: z.enum(['no_neighbor', 'same_pane', 'not_found', 'cross_tab']).optional(),
        source_pane_id: z.string(),
        target_pane_id: z.string().optional(),
        focused_pane_id: z.string(),
        layout: paneLayoutSnapshotSchema,
      }),
    }),
    changesState: true,
  },
  'pane.zoom': {
    params: z.object({ pane_id: somePane, mode: optional(z.enum(PANE_ZOOM_MODES)).describe('default toggle') }),
    result: z.object({
      type: z.literal('pane_zoom'),
      zoom: z.object({
        changed: z.boolean().describe('the zoom or the focus changed'),
        zoom_changed: z.boolean(),
        focus_changed: z.boolean(),
        reason: z.enum(['single_pane', 'already_zoomed', 'already_unzoomed']).optional(),
        pane_id: z.string(),
        focused_pane_id: z.string(),
        zoomed: z.boolean().describe('the pane\'s tab is zoomed now'),
        layout: paneLayoutSnapshotSchema,
      }),
    }),
    changesState: true,
  },
  'pane.move': {
    params: z.object({ pane_id: paneId, destination: moveDestination, focus: optional(z.boolean()) }),
    result: z.object({
      type: z.literal('pane_move'),
      move_result: z.object({
        changed: z.boolean(),
        reason: z.enum(['same_tab', 'zoomed_tab']).optional(),
        previous_pane_id: z.string(),
        previous_workspace_id: z.string(),
        previous_tab_id: z.string(),
        pane: paneInfoSchema.describe('the pane where it is now'),
        source_layout: paneLayoutSnapshotSchema.optional().describe('the tab it left, unless that tab closed'),
        target_layout: paneLayoutSnapshotSchema,
        created_workspace: workspaceInfoSchema.optional(),
        created_tab: tabInfoSchema.optional(),
        closed_workspace_id: z.string().optional(),
        closed_tab_id: z.string().optional(),
        focused_pane_id: z.string().describe('the focused pane of the tab it went to'),
      }),
    }),
    changesState: true,
  },
  'pane.scroll': {
    params: paneScrollParams,
    result: paneScrollResult,
    changesState: false,
  },
  'tab.move': {
    params: z.object({ tab_id: tabId, insert_index: insertIndex }),
    result: z.object({ type: z.literal('tab_list'), tabs: z.array(tabInfoSchema).describe('the workspace\'s tabs in their new order') }),
    changesState: true,
  },
  'workspace.move': {
    params: z.object({ workspace_id: workspaceId, insert_index: insertIndex }),
    result: workspaceList,
    changesState: true,
  },
  'workspace.move_block': {
    params: z.object({
      workspace_ids: z.array(workspaceId).describe('the workspaces to move, in the order they take'),
      before_workspace_id: optional(workspaceId).describe('they go right before this one (default: to the end)'),
    }),
    result: workspaceList,
    changesState: true,
  },
  'layout.set_split_ratio': {
    params: z.object({
      tab_id: optional(tabId).describe('this tab (default: the active workspace\'s active tab)'),
      pane_id: optional(paneId).describe('the tab of this pane'),
      path: z.array(z.boolean()).describe('from the root: false the first child, true the second; [] the root split'),
      ratio: z.number().describe('the first child\'s share, kept within 0.1–0.9'),
    }),
    result: z.object({ type: z.literal('layout_split_ratio_set'), layout: layoutDescriptionSchema }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
