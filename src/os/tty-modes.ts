/**
 * A pane terminal's line discipline, through our addon native/tty-modes (built at install;
 * Linux, where tcgetattr on a PTY master answers the slave's settings). Whether the
 * program in front reads keys yet: an agent CLI turns canonical mode off when its input
 * starts, and until then a CR typed to it becomes a LF in a line the kernel edits. Without
 * the addon nothing is known (undefined), and callers go by the screen alone.
 */
import { nativeAddon } from './native-addon.js';

export interface LineMode {
  /** ICANON: the kernel edits input a line at a time (nobody reads keys yet). */
  canonical: boolean;
  echo: boolean;
  /** ICRNL: a CR typed arrives as LF. */
  crToLf: boolean;
}

interface TtyModes {
  lineMode(fd: number): number;
}

const addon = nativeAddon<TtyModes>('tty-modes', 'tty_modes');

/** The terminal's line mode, read through `fd` (a PTY master); undefined without the addon or for a closed fd. */
export function lineMode(fd: number): LineMode | undefined {
  const mode = addon()?.lineMode(fd);
  if (mode === undefined || mode < 0) return undefined;
  return { canonical: (mode & 1) !== 0, echo: (mode & 2) !== 0, crToLf: (mode & 4) !== 0 };
}
