/**
 * One pane large: its terminal at full size, live (`pane.stream`, sent as it
 * comes), and typed into: what xterm.js makes of each key or paste (the
 * sequences the program asked for, bracketed paste when it turned that on)
 * goes to the pane with `pane.send_text`, as `herdr pane attach` sends it.
 * Opening a pane is looking at it (a `done` agent turns `idle`). Its toolbar:
 * the blocked agent's options, a prompt (`agent.prompt`; an agent's pane
 * only), fit to the window (`pane.resize`), close (`pane.close`). Back to the
 * grid leaves it running.
 */
import { FitAddon } from '@xterm/addon-fit';
import type { MenuOption } from '../../protocol/menu.js';
import { hasRightButtonReport, withoutRightButtonReports } from '../../protocol/mouse-reports.js';
import { LOCAL_HOST, type TileRow } from '../wire.js';
import { byId, isShell, shortPath, statusText, tileName, tileTitle } from './format.js';
import type { Link } from './link.js';
import { MenuButtons } from './menu-buttons.js';
import { StreamedTerminal } from './streamed-terminal.js';

const FONT_SIZE = 14;

export interface PaneViewActions {
  answer(row: TileRow, option: MenuOption): void;
  say(message: string): void;
  closed(): void;
}

export class PaneView {
  private readonly root = byId('pane-view');
  private readonly title = byId('pane-title');
  private readonly question = byId('pane-question');
  private readonly menu: MenuButtons;
  private readonly holder = byId('pane-terminal');
  private screen: StreamedTerminal | undefined;
  private row: TileRow | undefined;
  /** Input sent so far, in order (send). */
  private typing = Promise.resolve();

  constructor(
    private readonly link: Link,
    private readonly readOnly: boolean,
    private readonly actions: PaneViewActions,
  ) {
    this.menu = new MenuButtons(byId('pane-options'), (option) => {
      if (this.row) this.actions.answer(this.row, option);
      this.screen?.term.focus();
    });
    byId('back').addEventListener('click', () => this.actions.closed());
    byId('fit').addEventListener('click', () => void this.fit());
    byId('close-pane').addEventListener('click', () => void this.closePane());
    byId<HTMLFormElement>('prompt-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.prompt();
    });
  }

  get key(): string | undefined {
    return this.row?.key;
  }

  open(row: TileRow): void {
    this.close();
    this.row = row;
    this.root.hidden = false;
    const screen = new StreamedTerminal(
      this.link,
      { live: true, look: true, fontSize: FONT_SIZE, input: !this.readOnly },
      {
        exited: () => this.actions.say(`${row.pane} exited`),
        failed: (message) => this.actions.say(`${row.pane}: ${message}`),
      },
    );
    this.screen = screen;
    screen.term.open(this.holder);
    if (!this.readOnly) {
      screen.term.onData((text) => this.send(text));
      screen.term.onBinary((text) => this.send(text));
    }
    screen.term.onWriteParsed(() => this.showOptions());
    screen.attach({ host: row.host, pane: row.pane });
    screen.term.focus();
    this.update(row);
  }

  /** The row changed (state, question): the toolbar follows. */
  update(row: TileRow): void {
    if (row.key !== this.row?.key) return;
    this.row = row;
    this.root.dataset.status = row.status;
    this.title.textContent = [tileTitle(row), statusText(row), shortPath(row.cwd), row.host === LOCAL_HOST ? '' : row.host].filter(Boolean).join(' · ');
    // A plain shell has no agent to prompt: its box would only send a turn to nobody. Typing goes to the terminal.
    byId('prompt-form').hidden = isShell(row);
    this.question.textContent = row.status === 'blocked' ? row.question ?? 'waiting for an answer' : '';
    this.showOptions();
  }

  close(): void {
    this.screen?.dispose();
    this.screen = undefined;
    this.row = undefined;
    this.menu.clear();
    this.root.hidden = true;
  }

  /** The screen's lines as text. */
  screenLines(): string[] {
    return this.screen?.lines() ?? [];
  }

  private showOptions(): void {
    this.menu.show(this.row?.status === 'blocked' && !this.readOnly, () => this.screenLines());
  }

  /**
   * What xterm.js made of a key or a paste, to the pane as typed, in order. A right click
   * reaches the program only when the pane's `right_click` is `pane` (pane.input.set), asked at
   * the click; what is typed after it waits for that answer.
   */
  private send(text: string): void {
    const row = this.row;
    if (!row) return;
    const say = (error: Error) => this.actions.say(error.message);
    this.typing = this.typing
      .then(async () => {
        let out = text;
        if (hasRightButtonReport(text)) {
          const { pane } = await this.link.call('pane.get', { pane_id: row.pane }, row.host);
          if ((pane.right_click ?? 'pane') !== 'pane') out = withoutRightButtonReports(text);
        }
        if (out !== '') this.link.call('pane.send_text', { pane_id: row.pane, text: out }, row.host).catch(say);
      })
      .catch(say);
  }

  /** Resizes the pane to what fits this window (the program sees SIGWINCH, as in any terminal). */
  private async fit(): Promise<void> {
    const row = this.row;
    const term = this.screen?.term;
    if (!row || !term) return;
    const fit = new FitAddon();
    term.loadAddon(fit);
    const size = fit.proposeDimensions();
    fit.dispose();
    if (!size || !(size.cols > 0 && size.rows > 0)) return;
    try {
      await this.link.call('pane.resize', { pane_id: row.pane, cols: size.cols, rows: size.rows }, row.host);
    } catch (error) {
      this.actions.say((error as Error).message);
    }
  }

  private async prompt(): Promise<void> {
    const row = this.row;
    const input = byId<HTMLInputElement>('prompt-text');
    const text = input.value;
    if (!row || text.trim() === '') return;
    try {
      const { turn } = await this.link.call('agent.prompt', { target: row.pane, text }, row.host);
      input.value = '';
      const where = turn.state === 'queued' ? `queued as ${turn.turn_id}, ${turn.position ?? 0} ahead: written when it is idle` : `${turn.turn_id} written`;
      this.actions.say(`prompted ${tileName(row)} in ${row.pane}: ${where}`);
    } catch (error) {
      this.actions.say((error as Error).message);
    }
  }

  private async closePane(): Promise<void> {
    const row = this.row;
    if (!row || !window.confirm(`Close ${row.pane} (${tileName(row)})? Its program gets a hangup.`)) return;
    try {
      await this.link.call('pane.close', { pane_id: row.pane }, row.host);
      this.actions.closed();
    } catch (error) {
      this.actions.say((error as Error).message);
    }
  }
}
