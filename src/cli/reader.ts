/**
 * Who reads what a command prints (docs/protocol.md §11): a person at a terminal gets a
 * table, a few `key: value` lines or a sentence, and a server's error as one line; a
 * program (stdout or stderr not a terminal) or anyone who asked with `--json` gets the
 * server's answer as it came, byte for byte.
 */

let jsonAsked = false;

/** `--json` was given: every answer and every server error as JSON, whatever the terminal. */
export function askJson(): void {
  jsonAsked = true;
}

/** A person reads stdout: it is a terminal and no `--json`. */
export const personReadsStdout = (): boolean => !jsonAsked && process.stdout.isTTY === true;

/** A person reads stderr: it is a terminal and no `--json`. */
export const personReadsStderr = (): boolean => !jsonAsked && process.stderr.isTTY === true;

/** The terminal's width, for lines cut to one row each. */
export const terminalWidth = (): number | undefined => (process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined);
