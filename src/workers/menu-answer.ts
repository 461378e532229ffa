/**
 * A shard's side of the approval inbox: the menu on a pane's screen with the hash that names
 * it, and the keys for an answer, given only while the hash still holds (the check and the
 * write are one step of the shard's: no output can come between them).
 */
import { createHash } from 'node:crypto';
import { ProtocolError } from '../protocol/errors.js';
import { type ButtonStyle, type ScreenMenu, findMenu, keysFor } from '../protocol/menu.js';
import type { MenuOnScreen } from '../protocol/thread.js';

/** Without a menu, the hash names the screen's last lines of text. */
const TAIL_LINES = 6;

/** The menu on a screen (`look` tells a row of buttons' selected one by its colours). */
export function menuOnScreen(screenText: string, look?: ButtonStyle): MenuOnScreen {
  const lines = screenText.split('\n');
  const menu = findMenu(lines, look);
  const named = menu
    ? [menu.question ?? '', ...menu.context, ...menu.options.map((option) => `${option.key}\u0000${option.label}`)]
    : lines.map((line) => line.trim()).filter((line) => line !== '').slice(-TAIL_LINES);
  return { menu, hash: createHash('sha256').update(named.join('\n')).digest('hex').slice(0, 16) };
}

export function answerKeys(onScreen: MenuOnScreen, option: string, questionHash: string): { keys: string[]; label: string } {
  if (onScreen.hash !== questionHash) {
    throw new ProtocolError('approval_changed', `the question on the screen is not the one answered (its hash is ${onScreen.hash} now): nothing was typed; list the approvals again`);
  }
  const menu: ScreenMenu | undefined = onScreen.menu;
  const keys = menu ? keysFor(menu, option) : undefined;
  const label = menu?.options.find((candidate) => candidate.key === option)?.label;
  if (!menu || !keys || label === undefined) {
    const have = menu ? menu.options.map((candidate) => candidate.key).join(', ') : 'none: no menu on the screen';
    throw new ProtocolError('approval_option_not_found', `no option ${option} (options: ${have}): nothing was typed`);
  }
  return { keys, label };
}
