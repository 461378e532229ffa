/**
 * A prompt's echo: the first line of what was typed, showing on the agent's screen after
 * the write (its input box or transcript), is what says the agent took the text, before
 * (or without) any change of its state (docs/protocol.md §13.7). Watched with an output
 * matcher on the pane's visible screen; text already on the screen before the write proves
 * nothing, so a match found at registration disarms the watch. The watch is not waited for:
 * the shard handles the matcher and then the write in the order they were sent.
 */
import { readWindow } from '../../protocol/read-window.js';
import { type OutputWatchParts, watchOutput } from '../waits/output-watch.js';
import type { PaneRecord } from '../registry.js';

/** Shorter than this, an echo is not told from what was there (`y`, `1`). */
const MIN_HEAD = 4;
/** Enough to know the line, short enough not to wrap on a narrow pane. */
const MAX_HEAD = 24;

/** What of `text` the screen is searched for, or undefined when it is too short to tell. */
export function echoHead(text: string): string | undefined {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '')?.trim().replace(/\s+/g, ' ');
  if (first === undefined || first.length < MIN_HEAD || /[\u0000-\u001f]/.test(first)) return undefined;
  return [...first].slice(0, MAX_HEAD).join('');
}

/**
 * Watches `pane` for the echo of `text` and calls `echoed` once when it shows; returns the
 * function that stops watching. Call it right before the write: the shard takes the matcher
 * before the write's bytes (one queue of messages), checks the screen as it is then, and a
 * match found in that check disarms the watch.
 */
export function watchEcho(parts: OutputWatchParts, pane: PaneRecord, text: string, echoed: () => void): () => void {
  const head = echoHead(text);
  if (head === undefined) return () => undefined;
  let armed = false;
  const stop = watchOutput(parts, pane, readWindow({ source: 'visible' }), { type: 'substring', value: head }, {
    matched: () => {
      stop();
      if (armed) echoed();
    },
    ready: () => {
      armed = true;
    },
  });
  return stop;
}
