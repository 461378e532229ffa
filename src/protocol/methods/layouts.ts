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
      label: optional(label).describe('the new workspace\'s label'),
      tab_label: optional(label).describe('herdr\'s name for label (label wins)'),
      focus: optional(z.boolean()),
      workspace_id: optional(workspaceId).describe('refused (invalid_target): layout.apply always builds a new workspace'),
      tab_id: optional(z.string()).describe('refused (invalid_target): layout.apply always builds a new workspace'),
    }),
    result: z.object({ type: z.literal('layout_apply'), layout: layoutDescriptionSchema }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
