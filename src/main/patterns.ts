/** Match patterns checked on the main thread before any work: RE2 decides what is a valid regex. */
import RE2 from 're2';
import { ProtocolError } from '../protocol/errors.js';
import type { MatchSpec } from '../protocol/read-window.js';

/** Throws `invalid_regex` with RE2's own message when RE2 rejects the pattern. */
export function checkPattern(match: MatchSpec): void {
  if (match.type !== 'regex') return;
  try {
    new RE2(match.value);
  } catch (error) {
    throw new ProtocolError('invalid_regex', `invalid regex ${match.value}: ${(error as Error).message}`);
  }
}
