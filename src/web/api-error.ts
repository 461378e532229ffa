/** What the page is told when a call or a stream fails: the server's code and message, or why it could not be reached. */
import { HerdrError } from '../client/errors.js';
import type { ApiError } from './wire.js';

export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof HerdrError) return { code: error.code, message: error.message };
  return { code: 'server_unreachable', message: error instanceof Error ? error.message : String(error) };
}
