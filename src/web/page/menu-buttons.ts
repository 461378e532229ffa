/**
 * A blocked agent's menu as buttons (the tile's and the large pane's): its options read off
 * the screen, drawn again only when they changed. A click answers through the approval inbox.
 */
import { type MenuOption, findMenu } from '../../protocol/menu.js';
import { element } from './format.js';

export class MenuButtons {
  private shown = '';

  constructor(
    private readonly holder: HTMLElement,
    private readonly clicked: (option: MenuOption) => void,
  ) {}

  /** The menu on `lines` while the agent is blocked; none otherwise. */
  show(blocked: boolean, lines: () => string[]): void {
    const options = blocked ? (findMenu(lines())?.options ?? []) : [];
    const shown = JSON.stringify(options);
    if (shown === this.shown) return;
    this.shown = shown;
    this.holder.replaceChildren(
      ...options.map((option) => {
        const button = element('button', 'option', `${option.key}. ${option.label}`);
        button.type = 'button';
        button.title = 'answer with this option (approvals.answer: only if the question is still the same)';
        button.addEventListener('click', () => this.clicked(option));
        return button;
      }),
    );
  }

  clear(): void {
    this.shown = '';
    this.holder.replaceChildren();
  }
}
