/** Exit codes of the `herdr` CLI (docs/protocol.md §11), and the one mapping from a failure to its code. */
import { CommanderError } from 'commander';

export const EXIT = {
  ok: 0,
  /** Server error, timeout, bad value, no connection. */
  failure: 1,
  /** Unknown command or flag, missing argument. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** commander ends this way after printing help or the version, which is no failure. */
const CLEAN_ENDS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** The code a command that failed with `error` exits with: a usage error 2, any other failure (HerdrError, ConnectionError, …) 1. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CommanderError) return CLEAN_ENDS.has(error.code) ? EXIT.ok : EXIT.usage;
  return EXIT.failure;
}
