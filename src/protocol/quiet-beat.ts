/**
 * The beat a quiet server's threads wake on. An idle shard's process tick and main's
 * heartbeat to it fall on the same instants of one grid (the epoch in milliseconds, a
 * multiple of the period), so the threads wake together once a beat instead of each on a
 * phase of its own: here a wake-up costs an idle thread 1–3 ms of CPU whatever it then does
 * (ARCHITECTURE.md, "What an idle pane costs").
 */
export const QUIET_BEAT_MS = 5000;

/**
 * Milliseconds from `now` to the first beat at or after `earliest`, both on the calling
 * thread's `performance.now()` scale (each thread has its own origin; the grid is shared).
 */
export function untilBeat(now: number, earliest: number, periodMs = QUIET_BEAT_MS): number {
  const origin = performance.timeOrigin;
  const beat = Math.ceil((origin + earliest) / periodMs) * periodMs - origin;
  return Math.max(0, beat - now);
}
