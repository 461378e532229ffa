/**
 * herdr's methods that act on the screen herdr draws (its attached client's window title, its
 * popups, its sidebar's agent view, image layers placed over a pane) and its live handoff
 * (docs/protocol.md §5.5). This server draws no screen, so each is answered `unsupported` with
 * its reason (../screen-only.ts), after its params were checked against herdr's shapes (a
 * malformed request is still `invalid_request`). Spread into `METHODS` (methods.ts); answered
 * by main/handlers/screen-only.ts.
 */
import { z } from 'zod';
import { optional } from '../optional.js';
import { type MethodEntry, empty, paneId } from '../params.js';
import type { ScreenOnlyMethod } from '../screen-only.js';

const uint32 = z.number().int().min(0).max(0xffff_ffff);
const int32 = z.number().int().min(-0x8000_0000).max(0x7fff_ffff);
const uint64 = z.number().int().min(0);

/** herdr's agent view fields: a built-in one, or a reported token by name. */
const viewField = z.union([z.enum(['status', 'workspace_id', 'tab_id', 'pane_id', 'agent', 'seen', 'state_change_seq']), z.object({ token: z.string() })]);
const viewSortField = z.union([
  z.enum(['workspace_order', 'tab_order', 'pane_order', 'attention', 'status', 'agent', 'seen', 'state_change_seq']),
  z.object({ token: z.string() }),
]);
const viewValue = z.union([z.string(), z.boolean(), uint64, z.object({ context: z.enum(['current_workspace_id', 'current_tab_id']) })]);

/** herdr's AgentViewFilter: a tree of all / any / not over field tests. */
type ViewFilter =
  | { op: 'all' | 'any'; filters: ViewFilter[] }
  | { op: 'not'; filter: ViewFilter }
  | { op: 'eq'; field: z.output<typeof viewField>; value: z.output<typeof viewValue> }
  | { op: 'in'; field: z.output<typeof viewField>; values: Array<z.output<typeof viewValue>> }
  | { op: 'exists'; field: z.output<typeof viewField> };
const viewFilter: z.ZodType<ViewFilter> = z.lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('all'), filters: z.array(viewFilter) }),
    z.object({ op: z.literal('any'), filters: z.array(viewFilter) }),
    z.object({ op: z.literal('not'), filter: viewFilter }),
    z.object({ op: z.literal('eq'), field: viewField, value: viewValue }),
    z.object({ op: z.literal('in'), field: viewField, values: z.array(viewValue) }),
    z.object({ op: z.literal('exists'), field: viewField }),
  ]),
);

/** Never answered: these methods always fail with `unsupported`. */
const noResult = z.never().describe('none: always answered with the error `unsupported`');

export const SCREEN_ONLY_METHODS = {
  'client.window_title.set': { params: z.object({ title: z.string() }), result: noResult, changesState: false },
  'client.window_title.clear': { params: empty, result: noResult, changesState: false },
  'popup.close': { params: empty, result: noResult, changesState: false },
  'agent.view.set': {
    params: z.object({
      source: z.string(),
      label: optional(z.string()),
      filter: optional(viewFilter),
      sort: optional(z.array(z.object({ field: viewSortField, order: optional(z.enum(['asc', 'desc'])) }))),
    }),
    result: noResult,
    changesState: false,
  },
  'agent.view.clear': { params: z.object({ source: optional(z.string()) }), result: noResult, changesState: false },
  'pane.graphics.info': { params: z.object({ pane_id: paneId }), result: noResult, changesState: false },
  'pane.graphics.set': {
    params: z.object({
      pane_id: paneId,
      format: z.enum(['png', 'rgb', 'rgba', 'bgra']),
      image_width: uint32,
      image_height: uint32,
      data_base64: optional(z.string()),
      layer_id: optional(z.string()),
      placement: optional(z.object({ grid_cols: optional(uint32), grid_rows: optional(uint32), viewport_col: optional(int32), viewport_row: optional(int32) })),
      z_index: optional(int32),
    }),
    result: noResult,
    changesState: false,
  },
  'pane.graphics.clear': { params: z.object({ pane_id: paneId, layer_id: optional(z.string()) }), result: noResult, changesState: false },
  'server.live_handoff': {
    params: z.object({ import_exe: optional(z.string()), expected_protocol: optional(uint32), expected_version: optional(z.string()) }),
    result: noResult,
    changesState: false,
  },
} as const satisfies Record<ScreenOnlyMethod, MethodEntry>;
