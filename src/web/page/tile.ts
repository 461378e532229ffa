/**
 * One pane in the grid: a header (the agent's name, the pane's stable id and
 * the agent's kind; its state and for how long, or for a plain shell whether
 * it is printing; last exit code, host), its screen live and scaled to the
 * tile's width, its directory, and for a blocked agent the question with one
 * button per menu option. The screen is streamed only while the tile is on
 * screen, as a glance (`look: false`), so a `done` agent stays `done` until
 * someone opens it.
 */
import type { MenuOption } from '../../protocol/menu.js';
import type { TileMetrics, TileRow } from '../wire.js';
import { age, element, isShell, shellActivity, shortPath, statusText, tileTitle } from './format.js';
import type { Link } from './link.js';
import { MenuButtons } from './menu-buttons.js';
import { StreamedTerminal } from './streamed-terminal.js';
import { TileCanvas } from './tile-canvas.js';

/** A tile that left the screen keeps its stream this long, so scrolling back and forth does not reopen it. */
const HIDE_AFTER_MS = 1000;
const OPTIONS_AFTER_MS = 250;
export interface TileActions {
  open(row: TileRow): void;
  answer(row: TileRow, option: MenuOption): void;
}

export class Tile {
  readonly root: HTMLElement;
  row: TileRow;
  private readonly screen: StreamedTerminal;
  private readonly name = element('span', 'name');
  private readonly state = element('span', 'state');
  private readonly ageText = element('span', 'age');
  private readonly exit = element('span', 'exit');
  private readonly queued = element('span', 'queued');
  private readonly host = element('span', 'tile-host');
  private readonly cwd = element('div', 'cwd');
  private readonly question = element('div', 'question');
  private readonly options = element('div', 'options');
  private readonly menu: MenuButtons;
  private readonly holder = element('div', 'tile-screen');
  private readonly picture: TileCanvas;
  private hideTimer: number | undefined;
  private optionsTimer: number | undefined;

  constructor(
    row: TileRow,
    link: Link,
    private readonly actions: TileActions,
    private readonly showHost: boolean,
    private readonly readOnly: boolean,
  ) {
    this.row = row;
    this.root = element('article', 'tile');
    this.root.dataset.key = row.key;
    this.root.tabIndex = 0;
    const head = element('header');
    head.append(this.name, this.state, this.ageText, this.queued, this.exit, this.host);
    this.root.append(head, this.holder, this.cwd, this.question, this.options);
    this.root.addEventListener('click', (event) => {
      if (!(event.target instanceof HTMLButtonElement)) this.actions.open(this.row);
    });
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target === this.root) this.actions.open(this.row);
    });
    // xterm.js parses the stream; the tile paints its buffer small (tile-canvas.ts says why not xterm's renderer).
    this.screen = new StreamedTerminal(link, { live: false, look: false, input: false }, { resized: () => this.rescale() });
    const canvas = element('canvas');
    this.holder.append(canvas);
    this.picture = new TileCanvas(this.screen.term, canvas);
    this.menu = new MenuButtons(this.options, (option) => this.actions.answer(this.row, option));
    this.screen.term.onWriteParsed(() => this.optionsSoon());
  }

  /** Called once the tile is in the document, where it has a width. */
  mount(): void {
    this.rescale();
    this.update(this.row, Date.now());
  }

  update(row: TileRow, now: number): void {
    this.row = row;
    this.root.dataset.status = row.status;
    this.name.textContent = tileTitle(row);
    this.name.title = `${row.pane} in workspace ${row.workspaceLabel || row.workspace}`;
    this.exit.textContent = row.lastExitCode === undefined ? '' : `exit ${row.lastExitCode}`;
    this.exit.classList.toggle('failed', row.lastExitCode !== undefined && row.lastExitCode !== 0);
    this.queued.textContent = row.queued === undefined ? '' : `${row.queued} queued`;
    this.queued.title = row.queued === undefined ? '' : 'prompts waiting for this agent (agent.queue.list)';
    this.host.textContent = this.showHost ? row.host : '';
    this.cwd.textContent = shortPath(row.cwd);
    this.cwd.title = row.cwd ?? '';
    this.question.textContent = row.status === 'blocked' ? row.question ?? 'waiting for an answer' : '';
    this.tick(now);
    this.optionsSoon();
  }

  /**
   * The state and age shown, once a second: an agent's state and how long it has held; a plain
   * shell has no state, so its output instead (the server's, docs/protocol.md §10.7): `printing`
   * and since when, or `quiet` and since its last output.
   */
  tick(now: number): void {
    const row = this.row;
    if (!isShell(row)) {
      this.state.textContent = statusText(row);
      this.ageText.textContent = age(row.since, now);
      this.state.title = '';
      delete this.root.dataset.activity;
      return;
    }
    const activity = shellActivity(row);
    this.root.dataset.activity = activity.word;
    this.state.textContent = activity.word;
    this.ageText.textContent = activity.since === undefined ? '' : age(activity.since, now);
    this.state.title = activity.word === 'printing' ? 'it printed in the last 2 seconds' : activity.since === undefined ? 'it has printed nothing' : 'nothing printed since';
  }

  /** On screen (or near it): stream; off screen for a moment: stop, keep the last picture. */
  visible(onScreen: boolean): void {
    window.clearTimeout(this.hideTimer);
    if (onScreen) this.screen.attach({ host: this.row.host, pane: this.row.pane });
    else this.hideTimer = window.setTimeout(() => this.screen.detach(), HIDE_AFTER_MS);
  }

  get streaming(): boolean {
    return this.screen.attached;
  }

  /** The screen's lines as text. */
  screenLines(): string[] {
    return this.screen.lines();
  }

  metrics(): TileMetrics {
    return this.picture.metrics();
  }

  dispose(): void {
    window.clearTimeout(this.hideTimer);
    window.clearTimeout(this.optionsTimer);
    this.picture.dispose();
    this.screen.dispose();
    this.root.remove();
  }

  /** A blocked agent's menu, read off its screen a moment after it changed. */
  private optionsSoon(): void {
    if (this.optionsTimer !== undefined) return;
    this.optionsTimer = window.setTimeout(() => {
      this.optionsTimer = undefined;
      this.menu.show(this.row.status === 'blocked' && !this.readOnly, () => this.screenLines());
    }, OPTIONS_AFTER_MS);
  }

  /** The picture fitted to the tile's width (after the tile or the pane changed size). */
  rescale(): void {
    this.picture.fit(this.holder.clientWidth);
  }
}
