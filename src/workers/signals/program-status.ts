/**
 * OSC 7501, a program's report of its own status (docs/protocol.md §10.6):
 * `ESC ] 7501 ; state=…[:kind=…][:app=…][:progress=…][:msg=<base64>][:title=<base64>][:id=…] ST`.
 * Parsed here into what the agent layer needs; anything malformed or over the
 * limits is dropped whole.
 */
import type { AgentState } from '../../protocol/objects.js';

export const STATUS_OSC = 7501;
/** The whole sequence, `ESC ] 7501 ;` and a two-byte terminator included. */
export const MAX_STATUS_SEQUENCE_BYTES = 4096;
export const MAX_STATUS_MESSAGE_BYTES = 2048;
export const MAX_STATUS_TITLE_BYTES = 192;
const FRAMING_BYTES = '\x1b]7501;'.length + 2;

/** A program's status: a state to apply, or `clear` (back to the screen rules). */
export type ProgramStatus =
  | { state: Exclude<AgentState, 'unknown'>; app?: string; message?: string }
  | { state: 'clear' };

const STATES: Record<string, ProgramStatus['state']> = {
  working: 'working',
  blocked: 'blocked',
  idle: 'idle',
  done: 'idle',
  error: 'idle',
  clear: 'clear',
};
const KEYS = new Set(['state', 'kind', 'app', 'progress', 'msg', 'title', 'id']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const APP_LABEL = /^[\w.@/+-]{1,64}$/;

/** The query a program sends before it reports (answered by echoing it). */
export function isStatusQuery(data: string): boolean {
  return data === '?';
}

function decodeBase64(value: string, maxBytes: number): string | undefined {
  if (value.length % 4 !== 0 || !BASE64.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length > maxBytes ? undefined : bytes.toString('utf8');
}

/** The status an OSC 7501 payload (after `7501;`) reports, or undefined when it must be dropped. */
export function parseProgramStatus(data: string): ProgramStatus | undefined {
  if (Buffer.byteLength(data) + FRAMING_BYTES > MAX_STATUS_SEQUENCE_BYTES) return undefined;
  const fields = new Map<string, string>();
  for (const pair of data.split(':')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return undefined;
    const key = pair.slice(0, eq);
    // Keys a later revision adds are skipped; a known key twice is malformed.
    if (!KEYS.has(key)) continue;
    if (fields.has(key)) return undefined;
    fields.set(key, pair.slice(eq + 1));
  }
  const state = STATES[fields.get('state') ?? ''];
  if (!state) return undefined;
  const msg = fields.get('msg');
  const message = msg === undefined ? undefined : decodeBase64(msg, MAX_STATUS_MESSAGE_BYTES);
  if (msg !== undefined && message === undefined) return undefined;
  const title = fields.get('title');
  if (title !== undefined && decodeBase64(title, MAX_STATUS_TITLE_BYTES) === undefined) return undefined;
  if (state === 'clear') return { state };
  const app = fields.get('app');
  if (app !== undefined && !APP_LABEL.test(app)) return undefined;
  return { state, ...(app ? { app } : {}), ...(message ? { message } : {}) };
}
