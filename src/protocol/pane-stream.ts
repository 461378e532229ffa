/**
 * `pane.stream` (docs/protocol.md §9.5): its ack and the lines that follow it
 * on the stream's connection. These lines carry no `seq`: they are not events
 * of the server's log, and a stream is not resumed, it is re-opened (its ack
 * and every resync carry the whole screen).
 */
import { z } from 'zod';
import { paneRefFields as paneRef } from './objects.js';
const size = { cols: z.number().int().min(1), rows: z.number().int().min(1) };
const snapshot = z
  .string()
  .describe('escape sequences that redraw the screen in a fresh terminal of cols × rows: contents, colours, cursor, alternate screen, modes');

export const paneStreamStartedSchema = z.object({
  type: z.literal('stream_started'),
  ...paneRef,
  stable_id: z.string().describe('the pane\'s id that never renumbers: for input to the pane while it is streamed'),
  ...size,
  snapshot,
});
export type PaneStreamStarted = z.output<typeof paneStreamStartedSchema>;

export const PANE_STREAM_EVENT_DATA = {
  'pane.output': z.object({ ...paneRef, bytes: z.string().describe('what the program wrote, base64, byte-exact and in order') }),
  'pane.resized': z.object({ ...paneRef, ...size }),
  'pane.resync': z.object({ ...paneRef, ...size, snapshot }),
  'pane.exited': z.object({
    ...paneRef,
    exit_code: z.number().int().optional().describe('absent when the pane\'s shard died with it'),
    signal: z.number().int().optional(),
  }),
} as const;

export type PaneStreamEventName = keyof typeof PANE_STREAM_EVENT_DATA;
export type PaneStreamEvents = { [E in PaneStreamEventName]: z.output<(typeof PANE_STREAM_EVENT_DATA)[E]> };

const line = <E extends PaneStreamEventName, S extends z.ZodRawShape>(event: E, data: z.ZodObject<S>) =>
  z.object({ event: z.literal(event), data });

/** Every line after a `pane.stream` ack. */
export const paneStreamLineSchema = z.discriminatedUnion('event', [
  line('pane.output', PANE_STREAM_EVENT_DATA['pane.output']),
  line('pane.resized', PANE_STREAM_EVENT_DATA['pane.resized']),
  line('pane.resync', PANE_STREAM_EVENT_DATA['pane.resync']),
  line('pane.exited', PANE_STREAM_EVENT_DATA['pane.exited']),
]);
export type PaneStreamLine = z.output<typeof paneStreamLineSchema>;

/** A stream line as the server writes it, typed by its name. */
export function paneStreamLine<E extends PaneStreamEventName>(event: E, data: PaneStreamEvents[E]): string {
  return `${JSON.stringify({ event, data })}\n`;
}
