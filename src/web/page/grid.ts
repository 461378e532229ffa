/**
 * The fleet view: one tile per pane, blocked agents first (with their
 * question), then working, done, idle, and plain shells; within a state by
 * host, workspace and layout. Filters by state, agent and text. Tiles are
 * made and dropped as panes come and go; which ones stream is up to an
 * IntersectionObserver, so panes nobody can see cost nothing.
 */
import type { AgentStatus } from '../../protocol/enums.js';
import { LOCAL_HOST, type TileRow } from '../wire.js';
import { element } from './format.js';
import type { Link } from './link.js';
import { Tile, type TileActions } from './tile.js';

export const STATUS_ORDER: Record<AgentStatus, number> = { blocked: 0, working: 1, done: 2, idle: 3, unknown: 4 };
export const STATUS_LABELS: Record<AgentStatus, string> = { blocked: 'blocked', working: 'working', done: 'done', idle: 'idle', unknown: 'shell' };

export interface Filters {
  statuses: Set<AgentStatus>;
  agent: string;
  text: string;
}

export function compareTiles(a: TileRow, b: TileRow): number {
  const localFirst = (row: TileRow) => (row.host === LOCAL_HOST ? '' : row.host);
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    localFirst(a).localeCompare(localFirst(b)) ||
    a.workspaceNumber - b.workspaceNumber ||
    a.order - b.order
  );
}

export function passes(row: TileRow, filters: Filters): boolean {
  if (filters.statuses.size > 0 && !filters.statuses.has(row.status)) return false;
  if (filters.agent !== '' && (row.agent ?? '') !== filters.agent) return false;
  if (filters.text === '') return true;
  const haystack = [row.name, row.agent, row.pane, row.workspaceLabel, row.cwd, row.question, row.host].join('\n').toLowerCase();
  return haystack.includes(filters.text.toLowerCase());
}

export class TileGrid {
  private readonly tiles = new Map<string, Tile>();
  private readonly observer: IntersectionObserver;
  /** A tile's width changes with the window and the size chosen: its screen is scaled again. */
  private readonly resizes = new ResizeObserver((entries) => {
    for (const entry of entries) this.tiles.get((entry.target as HTMLElement).dataset.key ?? '')?.rescale();
  });
  private shownOrder = '';

  constructor(
    private readonly container: HTMLElement,
    private readonly link: Link,
    private readonly actions: TileActions,
    private readonly readOnly: boolean,
  ) {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const key = (entry.target as HTMLElement).dataset.key;
          if (key !== undefined) this.tiles.get(key)?.visible(entry.isIntersecting);
        }
      },
      { rootMargin: '200px 0px' },
    );
    window.setInterval(() => {
      const now = Date.now();
      for (const tile of this.tiles.values()) tile.tick(now);
    }, 1000);
  }

  /** The fleet's rows, filtered: tiles made, updated, dropped and put in order. Returns how many are shown. */
  show(rows: readonly TileRow[], filters: Filters, multiHost: boolean): number {
    const now = Date.now();
    const seen = new Set<string>();
    const shown = rows.filter((row) => passes(row, filters)).sort(compareTiles);
    for (const row of shown) {
      seen.add(row.key);
      const tile = this.tiles.get(row.key);
      if (tile) tile.update(row, now);
      else this.add(row, multiHost);
    }
    for (const [key, tile] of this.tiles) {
      if (seen.has(key)) continue;
      this.observer.unobserve(tile.root);
      this.resizes.unobserve(tile.root);
      tile.dispose();
      this.tiles.delete(key);
    }
    const order = shown.map((row) => row.key).join('\n');
    if (order !== this.shownOrder) {
      this.shownOrder = order;
      // appendChild moves a node that is already in: the DOM ends up in `shown` order.
      for (const row of shown) {
        const tile = this.tiles.get(row.key);
        if (tile) this.container.append(tile.root);
      }
    }
    return shown.length;
  }

  tile(key: string): Tile | undefined {
    return this.tiles.get(key);
  }

  /** How many tiles stream now (the page exposes it for tests and the bench). */
  get streaming(): number {
    let count = 0;
    for (const tile of this.tiles.values()) if (tile.streaming) count++;
    return count;
  }

  private add(row: TileRow, multiHost: boolean): void {
    const tile = new Tile(row, this.link, this.actions, multiHost, this.readOnly);
    this.tiles.set(row.key, tile);
    this.container.append(tile.root);
    tile.mount();
    this.observer.observe(tile.root);
    this.resizes.observe(tile.root);
  }
}

/** The state filter chips: one toggle per status, none pressed = all. */
export function stateChips(host: HTMLElement, filters: Filters, changed: () => void): Map<AgentStatus, HTMLElement> {
  const chips = new Map<AgentStatus, HTMLElement>();
  for (const status of Object.keys(STATUS_ORDER) as AgentStatus[]) {
    const chip = element('button', 'chip', STATUS_LABELS[status]);
    chip.type = 'button';
    chip.dataset.status = status;
    chip.setAttribute('aria-pressed', 'false');
    chip.addEventListener('click', () => {
      if (filters.statuses.has(status)) filters.statuses.delete(status);
      else filters.statuses.add(status);
      chip.setAttribute('aria-pressed', String(filters.statuses.has(status)));
      changed();
    });
    host.append(chip);
    chips.set(status, chip);
  }
  return chips;
}
