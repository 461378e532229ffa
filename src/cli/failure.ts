/**
 * How a command ends when it fails (docs/protocol.md §11): a server's error
 * answer is printed whole, as JSON, on stderr; any other failure is one line;
 * the exit code is exitCodeOf's.
 */
import { HerdrError } from '../client/errors.js';
import { EXIT, exitCodeOf } from './exit-codes.js';

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
    process.stderr.write(serverError === 'answer' ? `${JSON.stringify(error.response)}\n` : `herdr: ${error.response.error.message}\n`);
  } else {
    process.stderr.write(`herdr: ${messageOf(error)}\n`);
  }
  process.exit(exitCodeOf(error));
}
