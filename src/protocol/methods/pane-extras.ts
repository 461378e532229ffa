/**
 * Method-table entries for herdr's current pane methods that need no screen
 * (docs/protocol.md §5.6): the caller's pane (`pane.current`), where a right click goes
 * (`pane.input.set`), a selection of the pane's text (`pane.selection.read`, ours: herdr
 * has one in newer releases, not in the schema we follow). Spread into `METHODS` (methods.ts).
 */
import { z } from 'zod';
import { RIGHT_CLICK_TARGETS } from '../enums.js';
import { paneInfoSchema } from '../objects.js';
import { optional } from '../optional.js';
import { type MethodEntry, ok, paneId } from '../params.js';

/** How `pane.current` found the pane (EXT `found_by`). */
export const CURRENT_PANE_SOURCES = ['caller_pane_id', 'process', 'focused'] as const;

/** A cell of the pane's text: `row` 0 is the screen's top row, -1 the newest history row above it; `col` a 0-based cell column. */
const cellSchema = z.object({
  row: z.number().int().min(-1_000_000).max(1_000_000).describe('0: the top row of the screen; negative: rows of the history above it (-1 the newest)'),
  col: z.number().int().min(0).max(100_000).describe('0-based cell column (a wide character takes two)'),
});
export type SelectionCell = z.output<typeof cellSchema>;

export const SELECTION_MODES = ['stream', 'block'] as const;

export const paneSelectionSchema = z.object({
  pane_id: z.string(),
  workspace_id: z.string(),
  stable_id: z.string(),
  tab_id: z.string(),
  text: z.string().describe('the selected text: rows joined by \\n (a row the terminal wrapped joins the next without one), each row\'s trailing blanks dropped'),
  start: cellSchema.describe('where it began, clamped to the rows the pane has'),
  end: cellSchema.describe('where it ended, inclusive, clamped likewise'),
  mode: z.enum(SELECTION_MODES),
  revision: z.number().int().min(0),
});
export type PaneSelection = z.output<typeof paneSelectionSchema>;

export const PANE_EXTRA_METHODS = {
  'pane.current': {
    params: z.object({
      caller_pane_id: optional(paneId.describe('the caller\'s pane as it knows it (herdr\'s CLI sends HERDR_PANE_ID)')),
      caller_only: optional(z.boolean().describe('EXT: without caller_pane_id, answer pane_not_found when the connecting process runs in no pane, rather than the focused pane')),
    }),
    result: z.object({
      type: z.literal('pane_current'),
      pane: paneInfoSchema,
      found_by: z.enum(CURRENT_PANE_SOURCES).optional().describe('EXT, always sent here: caller_pane_id; process, the pane the connecting process runs in (SO_PEERCRED); focused, herdr\'s fallback'),
    }),
    changesState: false,
  },
  'pane.input.set': {
    params: z.object({ pane_id: paneId, right_click: z.enum(RIGHT_CLICK_TARGETS) }),
    result: ok,
    changesState: true,
  },
  'pane.selection.read': {
    params: z.object({
      pane_id: paneId,
      start: cellSchema,
      end: cellSchema,
      mode: optional(z.enum(SELECTION_MODES).describe('stream (default): as a terminal selects with a drag, from start to end through the rows between; block: the same columns of every row')),
    }),
    result: z.object({ type: z.literal('pane_selection'), selection: paneSelectionSchema }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
