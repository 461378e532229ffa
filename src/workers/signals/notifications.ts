/**
 * A program asking for attention (docs/protocol.md §10.6): BEL, OSC 9 (iTerm2),
 * OSC 777 `notify;title;body` (urxvt, VTE) and OSC 99 (kitty, whose payload may
 * come in chunks). At most NOTIFICATIONS_PER_SECOND a pane are passed on.
 */
import type { PaneNotification } from '../../protocol/thread.js';

export const NOTIFICATIONS_PER_SECOND = 10;
/** Title and body are cut to this many characters. */
export const MAX_NOTIFICATION_TEXT = 1024;
/** Kitty notifications being assembled at once (chunks with `d=0`). */
const MAX_PENDING_KITTY = 8;

const cut = (text: string) => (text.length > MAX_NOTIFICATION_TEXT ? text.slice(0, MAX_NOTIFICATION_TEXT) : text);

function withText(kind: PaneNotification['notification'], title: string | undefined, body: string | undefined): PaneNotification {
  return { notification: kind, ...(title ? { title: cut(title) } : {}), ...(body ? { body: cut(body) } : {}) };
}

/** OSC 9's payload: a notification, unless it is a ConEmu command (`9;4;…` progress and the like). */
export function osc9Notification(data: string): PaneNotification | undefined {
  if (/^\d+(?:;|$)/.test(data)) return undefined;
  return withText('osc9', undefined, data);
}

/** OSC 777's payload: `notify;title;body` (other 777 commands are not notifications). */
export function osc777Notification(data: string): PaneNotification | undefined {
  const [command, title, ...body] = data.split(';');
  if (command !== 'notify') return undefined;
  return withText('osc777', title, body.join(';'));
}

/** Kitty's OSC 99: `metadata;payload`, metadata `k=v` pairs joined by `:`; chunks with `d=0` until the last. */
export class KittyNotifications {
  private readonly pending = new Map<string, { title: string; body: string }>();

  accept(data: string): PaneNotification | undefined {
    const split = data.indexOf(';');
    if (split === -1) return undefined;
    const meta = new Map<string, string>();
    for (const pair of data.slice(0, split).split(':')) {
      const eq = pair.indexOf('=');
      if (eq > 0) meta.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    let payload = data.slice(split + 1);
    if (meta.get('e') === '1') payload = Buffer.from(payload, 'base64').toString('utf8');
    const id = meta.get('i') ?? '';
    const part = meta.get('p') ?? 'title';
    let entry = this.pending.get(id);
    if (!entry) {
      if (this.pending.size >= MAX_PENDING_KITTY) this.pending.delete(this.pending.keys().next().value ?? '');
      entry = { title: '', body: '' };
      this.pending.set(id, entry);
    }
    // Other parts (icons, close requests, queries) are not text; chunks are bounded as they come.
    if (part === 'title') entry.title = cut(entry.title + payload);
    else if (part === 'body') entry.body = cut(entry.body + payload);
    if (meta.get('d') === '0') return undefined;
    this.pending.delete(id);
    if (!entry.title && !entry.body) return undefined;
    return withText('osc99', entry.title || undefined, entry.body || undefined);
  }
}

/** A sliding window: at most `limit` in any `windowMs`. */
export class RateLimit {
  private readonly times: number[] = [];

  constructor(
    private readonly limit = NOTIFICATIONS_PER_SECOND,
    private readonly windowMs = 1000,
  ) {}

  allow(now: number): boolean {
    while (this.times.length > 0 && now - (this.times[0] ?? 0) >= this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return false;
    this.times.push(now);
    return true;
  }
}
