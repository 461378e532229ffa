/**
 * The tab tier of herdr's current protocol (docs/protocol.md §5.3): a workspace holds
 * tabs, a tab holds a layout of panes. Shapes as herdr defines them; spread into `METHODS`.
 */
import { z } from 'zod';
import { paneInfoSchema, tabInfoSchema } from '../objects.js';
import { optional } from '../optional.js';
import { type MethodEntry, execText, label, ok, spawnOptions, workspaceId } from '../params.js';

export const tabId = z.string().describe('herdr\'s tab id, `w1:t2`');
const tabResult = z.object({ type: z.literal('tab_info'), tab: tabInfoSchema });

export const TAB_METHODS = {
  'tab.create': {
    params: z.object({
      workspace_id: optional(workspaceId.describe('default: the active workspace')),
      cwd: optional(execText),
      focus: optional(z.boolean()),
      ...spawnOptions,
    }),
    result: z.object({ type: z.literal('tab_created'), tab: tabInfoSchema, root_pane: paneInfoSchema }),
    changesState: true,
  },
  'tab.list': {
    params: z.object({ workspace_id: optional(workspaceId) }),
    result: z.object({ type: z.literal('tab_list'), tabs: z.array(tabInfoSchema) }),
    changesState: false,
  },
  'tab.get': {
    params: z.object({ tab_id: tabId }),
    result: tabResult,
    changesState: false,
  },
  'tab.focus': {
    params: z.object({ tab_id: tabId }),
    result: tabResult,
    changesState: true,
  },
  'tab.rename': {
    params: z.object({ tab_id: tabId, label }),
    result: tabResult,
    changesState: true,
  },
  'tab.close': {
    params: z.object({ tab_id: tabId }),
    result: ok,
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
