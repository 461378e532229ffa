/**
 * How a command ends when it fails (docs/protocol.md §11): a server's error
 * answer is printed whole, as JSON, on stderr (on a terminal without `--json`:
 * its message and code in one line); any other failure is one line; the exit
 * code is exitCodeOf's.
 */
import { HerdrError } from '../client/errors.js';
import { EXIT, exitCodeOf } from './exit-codes.js';
import { personReadsStderr } from './reader.js';

/** How a server's error answer is shown: whole (the rule), or its message alone (attach: a person at a terminal, docs/protocol.md §11.1). */
export type ServerErrorShown = 'answer' | 'message';

/** One line that says why. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function fail(message: string): never {
  process.stderr.write(`herdr: ${message}\n`);
  process.exit(EXIT.failure);
}

/** A usage mistake only the command itself can see (flags that need each other): exit 2, like commander's own. */
export function usageError(message: string): never {
  process.stderr.write(`herdr: ${message}\n`);
  process.exit(EXIT.usage);
}

export function exitWith(error: unknown, serverError: ServerErrorShown = 'answer'): never {
  if (error instanceof HerdrError) {
    const { code, message } = error.response.error;
    if (serverError === 'message') process.stderr.write(`herdr: ${message}\n`);
    // A person reads the one line; a program (or --json) the answer whole, as the server wrote it.
    else process.stderr.write(personReadsStderr() ? `herdr: ${message} (${code})\n` : `${JSON.stringify(error.response)}\n`);
  } else {
    process.stderr.write(`herdr: ${messageOf(error)}\n`);
  }
  process.exit(exitCodeOf(error));
}
