/**
 * A pane's read window (docs/protocol.md §5, §6): which text (one of READ_SOURCES),
 * how many lines, with or without escapes; and the pattern waits
 * and subscriptions look for in it. `pane.read`, `pane.wait_for_output` and
 * `pane.output_matched` take the same fields; the shard reads the window
 * with the defaults applied.
 */
import { z } from 'zod';
import { optional } from './optional.js';
import { READ_SOURCES, type ReadSource } from './enums.js';


export const DEFAULT_READ_LINES = 80;
export const MAX_READ_LINES = 10_000;

/** The window's fields as a client writes them (a zod shape, spread into the methods that take it). */
export const readWindowFields = {
  pane_id: z.string(),
  source: z.enum(READ_SOURCES),
  lines: optional(z.number().int().min(0)),
  strip_ansi: optional(z.boolean()),
  /** herdr's current spelling of `strip_ansi` (`ansi` keeps the escapes); it wins when both are sent. */
  format: optional(z.enum(['text', 'ansi'])),
};

/** herdr 0.2.0's match shape: `{type: "substring" | "regex", value}`. */
export const matchSchema = z.object({
  type: z.enum(['substring', 'regex']).describe('substring: the text as it is; regex: a pattern (RE2 syntax)'),
  value: z.string().describe('the text or pattern, e.g. "error:" or "^FAIL "'),
});
export type MatchSpec = z.output<typeof matchSchema>;

/** The window as a shard reads it. */
export interface ReadWindow {
  source: ReadSource;
  lines: number;
  stripAnsi: boolean;
}

/** The defaults applied: 80 lines (at most 10 000), escapes stripped. */
export function readWindow(params: {
  source: ReadSource;
  lines?: number | undefined;
  strip_ansi?: boolean | undefined;
  format?: 'text' | 'ansi' | undefined;
}): ReadWindow {
  return {
    source: params.source,
    lines: Math.min(params.lines ?? DEFAULT_READ_LINES, MAX_READ_LINES),
    stripAnsi: params.format === undefined ? (params.strip_ansi ?? true) : params.format === 'text',
  };
}
