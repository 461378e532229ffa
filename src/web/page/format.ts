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

/** What a pane is called in a sentence: its agent's name, else the agent's kind, else `shell`. */
export function tileName(row: TileRow): string {
  return row.name ?? row.agent ?? 'shell';
}

/**
 * A tile's title: the agent's name, the pane's stable id (the one people and calls use; positional
 * ids renumber as panes close) and the agent's kind: `asker · w2:p1 · claude`. Without a name the
 * kind (or `shell`) comes first: `claude · w2:p1`.
 */
export function tileTitle(row: TileRow): string {
  return [tileName(row), row.pane, row.name === undefined ? undefined : row.agent].filter(Boolean).join(' · ');
}

/** A plain shell: no agent in it (nothing to prompt). */
export function isShell(row: TileRow): boolean {
  return row.agent === undefined;
}

/** The agent's state shown beside the title; a plain shell's is its output (shellActivity). */
export function statusText(row: TileRow): string {
  return row.status === 'unknown' ? '' : row.status;
}

/** A plain shell: `printing` since it began, or `quiet` since its last output (none: it has printed nothing). */
export function shellActivity(row: TileRow): { word: 'printing' | 'quiet'; since: number | undefined } {
  return row.outputActive ? { word: 'printing', since: row.outputActiveSince } : { word: 'quiet', since: row.lastOutputAt };
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
