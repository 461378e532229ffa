/** Method-table entries for layouts as data and session.snapshot; spread into `METHODS` (methods.ts). */
import { z } from 'zod';
import { layoutDescriptionSchema, layoutTreeParam } from '../layout-tree.js';
import { optional } from '../optional.js';
import { type MethodEntry, label, paneId, workspaceId } from '../params.js';


export const LAYOUT_METHODS = {
  'layout.export': {
    params: z.object({
      workspace_id: optional(workspaceId).describe('this workspace (default: the active one)'),
      pane_id: optional(paneId).describe('the workspace of this pane'),
      tab_id: optional(z.string()).describe('this tab (§5.3)'),
    }),
    result: z.object({ type: z.literal('layout_export'), layout: layoutDescriptionSchema }),
    changesState: false,
  },
  'layout.apply': {
    params: z.object({
      root: layoutTreeParam,
      label: optional(label).describe('a new workspace\'s label (without tab_id and workspace_id, in the 0.2.0 dialect)'),
      tab_label: optional(label).describe('the new tab\'s label (a new workspace: its label, unless label is given)'),
      focus: optional(z.boolean()),
      workspace_id: optional(workspaceId).describe('build a new tab in this workspace (§5.2)'),
      tab_id: optional(z.string()).describe('replace this tab: a new tab is built in its workspace and the old one closes (§5.2)'),
    }),
    result: z.object({ type: z.literal('layout_apply'), layout: layoutDescriptionSchema }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
