/** Small text helpers of the page. */
import type { TileRow } from '../wire.js';

/** `42s`, `7m`, `3h`, `2d`: how long a state has lasted. */
export function age(sinceMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - sinceMs) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

const PATH_CHARS = 48;

/** `~/src/app` for a directory under a home, else the path; a long one keeps its end (`…/deep/dir`). */
export function shortPath(path: string | undefined): string {
  if (!path) return '';
  const short = path.replace(/^\/(?:home\/[^/]+|root)(?=\/|$)/, '~');
  return short.length <= PATH_CHARS ? short : `…${short.slice(short.length - PATH_CHARS + 1)}`;
}

/** What a tile is called: the agent, else `shell`. */
export function tileName(row: TileRow): string {
  return row.agent ?? 'shell';
}

/** The state shown beside the name: none for a plain shell (its name says it). */
export function statusText(row: TileRow): string {
  return row.status === 'unknown' ? '' : row.status;
}

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}
