/**
 * A pane's scroll position over its history (docs/protocol.md §5.4 `pane.scroll`): how far
 * the view a person would see sits above the live bottom. herdr's current protocol names the
 * position (`pane_info.scroll`, `pane.scroll_changed`) but, in the schema we follow, has no
 * method to move it; `pane.scroll` is ours, shaped like herdr's neighbouring pane methods.
 */
import { z } from 'zod';
import { optional } from './optional.js';
import { paneId } from './params.js';

const rows = z.number().int().min(0);

/** herdr's PaneScrollInfo. */
export const paneScrollInfoSchema = z
  .object({
    offset_from_bottom: rows.describe('rows between the bottom of the view and the live bottom; 0: the view follows the output'),
    max_offset_from_bottom: rows.describe('rows of history above the screen (0 on the alternate screen, which has none)'),
    viewport_rows: rows.describe('rows the view shows: the pane\'s terminal height'),
  })
  .meta({ id: 'PaneScrollInfo' });
export type PaneScrollInfo = z.output<typeof paneScrollInfoSchema>;

export const SCROLL_DIRECTIONS = ['up', 'down'] as const;
export const SCROLL_ENDS = ['top', 'bottom'] as const;

const count = z.number().int().min(1).max(1_000_000);

const present = (params: Record<string, unknown>, key: string) => params[key] !== undefined && params[key] !== null;

/** Three ways to say where the view goes; exactly one of `direction`, `to` and `offset_from_bottom`. */
export const paneScrollParams = z
  .object({
    pane_id: optional(paneId).describe('default: the focused pane of the active workspace'),
    direction: optional(z.enum(SCROLL_DIRECTIONS)).describe('up: back into the history; down: toward the live bottom'),
    lines: optional(count).describe('with direction: this many rows'),
    pages: optional(count).describe('with direction: this many screens (viewport_rows each); the default is one page'),
    to: optional(z.enum(SCROLL_ENDS)).describe('top: the oldest row kept; bottom: back to the live output'),
    offset_from_bottom: optional(z.number().int().min(0)).describe('this offset, cut to max_offset_from_bottom'),
  })
  .superRefine((params, context) => {
    const ways = ['direction', 'to', 'offset_from_bottom'].filter((key) => present(params, key));
    if (ways.length !== 1) {
      context.addIssue({ code: 'custom', message: 'pane.scroll takes one of direction (with lines or pages), to, or offset_from_bottom' });
    }
    if (present(params, 'lines') && present(params, 'pages')) context.addIssue({ code: 'custom', path: ['pages'], message: 'give lines or pages, not both' });
    if ((present(params, 'lines') || present(params, 'pages')) && !present(params, 'direction')) {
      context.addIssue({ code: 'custom', path: ['direction'], message: 'lines and pages go with a direction' });
    }
  });

export const paneScrollResult = z.object({
  type: z.literal('pane_scroll'),
  scroll: z.object({
    changed: z.boolean().describe('false: the view was already there (at the top or bottom, or no history)'),
    pane_id: z.string(),
    workspace_id: z.string(),
    scroll: paneScrollInfoSchema,
  }),
});
