/**
 * A notification (`notification.show`, docs/protocol.md §11.1) passed to the terminal a person
 * attached from, as the escape sequence terminals turn into a desktop notification: kitty's
 * own OSC 99, else OSC 9 (`title: body`), which iTerm2, WezTerm, Ghostty and others show and
 * the rest ignore. Inside tmux the sequence is wrapped for tmux to pass on. A sound asked for
 * is the terminal's bell. Nothing is drawn on the screen: the pane's picture stays the pane's.
 */
import type { NotificationInfo } from '../../protocol/methods/notifications.js';

const ESC = '\x1b';
const ST = `${ESC}\\`;
const BELL = '\x07';

/** Text fit for inside an OSC: no control characters (they would end or break it). */
function plain(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

/** Whether the terminal is kitty, which has a notification protocol of its own (OSC 99). */
function isKitty(env: NodeJS.ProcessEnv): boolean {
  return env.KITTY_WINDOW_ID !== undefined || env.TERM === 'xterm-kitty';
}

export function notificationSequence(notification: NotificationInfo, env: NodeJS.ProcessEnv = process.env): string {
  const title = plain(notification.title);
  const body = notification.body === undefined ? undefined : plain(notification.body);
  let sequence: string;
  if (isKitty(env)) {
    // i names the notification so that its body joins its title; d=0: more parts follow.
    sequence = body === undefined ? `${ESC}]99;;${title}${ST}` : `${ESC}]99;i=herdr:d=0;${title}${ST}${ESC}]99;i=herdr:p=body;${body}${ST}`;
  } else {
    sequence = `${ESC}]9;${body === undefined ? title : `${title}: ${body}`}${ST}`;
  }
  // tmux passes a sequence on only inside its DCS passthrough, every ESC doubled.
  if (env.TMUX) sequence = `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}`;
  return notification.sound === 'none' ? sequence : sequence + BELL;
}
