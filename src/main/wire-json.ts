/**
 * How answers and event lines become bytes for a client's dialect (docs/protocol.md §15):
 * a 0.2.0 client gets plain JSON.stringify, a current client the same with every
 * object's current ids (ids.ts CURRENT_VIEW) in place of its compact ones.
 */
import type { Dialect } from '../protocol/dialect.js';
import { currentViewOf } from './ids.js';

function currentIds(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const ids = currentViewOf(value);
  return ids ? { ...value, ...ids } : value;
}

/** One JSON line, without its newline. */
export function wireJson(message: unknown, dialect: Dialect): string {
  return dialect === 'current' ? JSON.stringify(message, currentIds) : JSON.stringify(message);
}
