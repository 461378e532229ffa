/**
 * `session.snapshot` (docs/protocol.md §13.5): everything a dashboard needs to draw the
 * fleet, in one answer, with the event seq it was taken at; spread into `METHODS`.
 */
import { z } from 'zod';
import { layoutDescriptionSchema } from '../layout-tree.js';
import { paneLayoutSnapshotSchema } from '../pane-layout.js';
import { agentInfoSchema, paneInfoSchema, tabInfoSchema, workspaceInfoSchema } from '../objects.js';
import { type MethodEntry, empty } from '../params.js';

export const sessionSnapshotSchema = z.object({
  version: z.string(),
  protocol: z.number().int().min(0).describe('as ping\'s: the protocol this connection is answered in (§15)'),
  seq: z.number().int().min(0).describe('EXT: the last event seq before the snapshot; events.subscribe with since = seq misses nothing after it'),
  focused_workspace_id: z.string().optional(),
  focused_pane_id: z.string().optional(),
  focused_tab_id: z.string().optional(),
  workspaces: z.array(workspaceInfoSchema),
  tabs: z.array(tabInfoSchema).describe('every tab, workspaces in order, each workspace\'s tabs in order'),
  panes: z.array(paneInfoSchema).describe('every pane, workspaces in order, tab by tab, each tab\'s panes in layout order'),
  layouts: z
    .array(layoutDescriptionSchema.extend(paneLayoutSnapshotSchema.pick({ area: true, panes: true, splits: true }).partial().shape))
    .describe('one per tab, the tree as layout.export gives it; on the current dialect also herdr\'s flat layout fields (area, panes, splits, as pane.layout gives them)'),
  agents: z.array(agentInfoSchema),
});
export type SessionSnapshot = z.output<typeof sessionSnapshotSchema>;

export const SESSION_METHODS = {
  'session.snapshot': {
    params: empty,
    result: z.object({ type: z.literal('session_snapshot'), snapshot: sessionSnapshotSchema }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
