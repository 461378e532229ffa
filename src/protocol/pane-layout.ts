/**
 * herdr's PaneLayoutSnapshot (its src/api/schema/panes.rs), the flat view of a
 * tab's panes and borders that herdr's `pane.resize {direction}` answers with
 * (docs/protocol.md §5).
 */
import { z } from 'zod';
import { SPLIT_DIRECTIONS } from './enums.js';

const cells = z.number().int().min(0).max(65_535);
export const paneLayoutRectSchema = z.object({ x: cells, y: cells, width: cells, height: cells });

export const paneLayoutSnapshotSchema = z
  .object({
    workspace_id: z.string(),
    tab_id: z.string(),
    zoomed: z.boolean().describe('the tab is zoomed: its focused pane fills it (pane.zoom); the rects stay those of the split tree, as herdr\'s'),
    area: paneLayoutRectSchema.describe('the size the panes\' terminals add up to when tiled as the tree says (a headless server has no screen)'),
    focused_pane_id: z.string(),
    panes: z.array(z.object({ pane_id: z.string(), focused: z.boolean(), rect: paneLayoutRectSchema })).describe('layout order; each rect is cut from area by the ratios, not the pane\'s terminal size'),
    splits: z
      .array(
        z.object({
          id: z.string().describe('split_<pre-order index>_root for the root, else split_<index>_<path>, the path from the root in 0 (first) and 1 (second)'),
          direction: z.enum(SPLIT_DIRECTIONS),
          ratio: z.number(),
          rect: paneLayoutRectSchema.describe('the whole split\'s area'),
        }),
      )
      .describe('pre-order: a split, then the splits of its first child, then of its second'),
  })
  .meta({ id: 'PaneLayoutSnapshot' });
export type PaneLayoutSnapshot = z.output<typeof paneLayoutSnapshotSchema>;

