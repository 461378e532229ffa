/**
 * The pane a command of herdr's current grammar names (docs/protocol.md §11.3): an ID
 * argument, `--pane ID`, or `--current` ($HERDR_PANE_ID, the pane the CLI runs in); with
 * none of them, the focused pane, as herdr's UI-focused default.
 */
import type { Command } from 'commander';
import { request } from '../../client/client.js';
import { successOrThrow } from '../../client/errors.js';
import type { PaneInfo } from '../../protocol/objects.js';
import { exitWith, fail, usageError } from '../failure.js';
import { type SocketOption, targetOf } from '../output.js';

export interface PaneTargetFlags extends SocketOption {
  pane?: string;
  current?: boolean;
}

export function paneTargetOptions(cmd: Command): Command {
  return cmd
    .option('--pane <id>', 'the pane (instead of the ID argument)')
    .option('--current', 'the pane this runs in ($HERDR_PANE_ID; unset: the focused pane)');
}

/** $HERDR_PANE_ID when set and not blank (herdr ignores a blank one). */
export function callerPane(): string | undefined {
  const id = process.env.HERDR_PANE_ID?.trim();
  return id ? id : undefined;
}

/** The pane named by the argument, --pane or --current; undefined: none was (or $HERDR_PANE_ID is unset). */
export function namedPane(id: string | undefined, flags: PaneTargetFlags): string | undefined {
  const ways = [id !== undefined, flags.pane !== undefined, flags.current === true].filter(Boolean).length;
  if (ways > 1) usageError('name the pane once: an ID, --pane ID or --current');
  return flags.current ? callerPane() : (id ?? flags.pane);
}

/** The focused pane as the server lists it (`pane_info.focused`: the active workspace's focused pane). */
export async function focusedPane(id: string, flags: SocketOption): Promise<PaneInfo> {
  let panes: PaneInfo[];
  try {
    const response = successOrThrow(await request('pane.list', {}, { id, dialer: targetOf(flags) }));
    panes = (response.result as { panes: PaneInfo[] }).panes;
  } catch (error) {
    exitWith(error);
  }
  const focused = panes.find((pane) => pane.focused);
  return focused ?? fail('no pane is focused (the server has no workspace)');
}
