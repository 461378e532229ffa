/**
 * `pane.resize`'s two forms (docs/protocol.md §5): ours sets the pane's PTY size,
 * herdr's current one moves the border beside the pane. Which one a request is
 * follows from its fields; a request with fields of both, or of neither, is refused
 * rather than read as one of them.
 */
import { z } from 'zod';
import { PANE_DIRECTIONS } from './enums.js';
import { optional } from './optional.js';
import { paneLayoutSnapshotSchema } from './pane-layout.js';
import { dimension, paneId } from './params.js';

const ptySize = z.object({ pane_id: paneId, cols: dimension, rows: dimension });
const borderMove = z.object({
  pane_id: optional(paneId).describe('default: the focused pane of the active workspace'),
  direction: z.enum(PANE_DIRECTIONS).describe('the border on that side of the pane moves that way (on an outer edge: the border on the other side)'),
  amount: optional(z.number()).describe('the share of the split to move it by: default 0.05, sign ignored, at most 0.5'),
});
const forms = z.union([ptySize, borderMove]);

const present = (params: Record<string, unknown>, keys: readonly string[]) => keys.some((key) => params[key] !== undefined && params[key] !== null);

/** The form's own issues (a missing `rows`, say) instead of a union's bare "invalid input". */
export const paneResizeParams = z
  .preprocess((params: z.input<typeof forms>, context) => {
    if (typeof params !== 'object' || params === null) return params;
    const size = present(params, ['cols', 'rows']);
    const border = present(params, ['direction', 'amount']);
    if (size === border) {
      const message = size
        ? 'pane.resize takes {cols, rows} (the PTY size) or {direction, amount?} (a border move), not fields of both'
        : 'pane.resize needs {cols, rows} (the PTY size) or {direction, amount?} (a border move)';
      context.issues.push({ code: 'custom', message, input: params });
      return params;
    }
    const parsed = (size ? ptySize : borderMove).safeParse(params);
    if (!parsed.success) for (const { message, path } of parsed.error.issues) context.issues.push({ code: 'custom', message, path, input: params });
    return params;
  }, forms)
  .meta({ type: 'object' });

/** The answer to the border form; the size form answers `pane_info`. */
export const paneBorderResult = z.object({
  type: z.literal('pane_resize'),
  resize: z.object({
    changed: z.boolean(),
    reason: z.literal('unchanged').optional().describe('when nothing moved: no border that way, or its ratio at its bound (0.1 / 0.9)'),
    pane_id: z.string(),
    focused_pane_id: z.string(),
    layout: paneLayoutSnapshotSchema,
  }),
});
