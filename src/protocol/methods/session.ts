/**
 * `session.snapshot` (docs/protocol.md §13.5): everything a dashboard needs to draw the
 * fleet, in one answer, with the event seq it was taken at; spread into `METHODS`.
 */
import { z } from 'zod';
import { layoutDescriptionSchema } from '../layout-tree.js';
import { agentInfoSchema, paneInfoSchema, workspaceInfoSchema } from '../objects.js';
import { type MethodEntry, empty } from '../params.js';

export const sessionSnapshotSchema = z.object({
  version: z.string(),
  protocol: z.number().int().min(0).describe('the revision of herdr\'s current protocol whose shapes these follow'),
  seq: z.number().int().min(0).describe('EXT: the last event seq before the snapshot; events.subscribe with since = seq misses nothing after it'),
  focused_workspace_id: z.string().optional(),
  focused_pane_id: z.string().optional(),
  workspaces: z.array(workspaceInfoSchema),
  panes: z.array(paneInfoSchema).describe('every pane, workspaces in order, each workspace\'s panes in layout order'),
  layouts: z.array(layoutDescriptionSchema).describe('one per workspace, as layout.export gives it'),
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
