/** Exit codes of the `herdr` CLI (docs/protocol.md §11). */
export const EXIT = {
  ok: 0,
  /** Server error, timeout, bad value, no connection. */
  failure: 1,
  /** Unknown command or flag, missing argument. */
  usage: 2,
} as const;
