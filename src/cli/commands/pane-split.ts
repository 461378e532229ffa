/**
 * `herdr pane split` and `herdr pane current` (docs/protocol.md §11, §11.3): both grammars'
 * ways to name a pane, `pane split ID …` (herdr 0.2.0) and `pane split [ID|--pane ID|--current] …`
 * (herdr's current CLI).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SPLIT_DIRECTIONS, type SplitDirection } from '../../protocol/enums.js';
import { given, send, shown } from '../output.js';
import { paneFields, splitSentence } from '../human/panes.js';
import { type FocusFlags, focusOf, focusOptions } from './focus-flags.js';
import { envAssignment, fraction, oneOf } from './parse.js';
import { type PaneTargetFlags, callerPane, focusedPane, namedPane, paneTargetOptions } from './pane-target.js';
import { callerEnv } from '../../client/caller-place.js';

interface SplitFlags extends PaneTargetFlags, FocusFlags {
  direction: SplitDirection;
  cwd?: string;
  env?: Record<string, string>;
  label?: string;
  ratio?: number;
}

export function addPaneSplitCommands(pane: Command): void {
  focusOptions(
    paneTargetOptions(
      pane
        .command('split')
        .argument('[id]')
        .description('split a pane (default: the focused one); the new pane starts in its directory unless --cwd, and is focused unless --no-focus')
        .requiredOption('--direction <direction>', SPLIT_DIRECTIONS.join(' | '), oneOf(...SPLIT_DIRECTIONS))
        .option('--cwd <path>', 'start directory of the new pane')
        .option('--env <KEY=VALUE>', 'environment of the new pane (repeatable)', envAssignment)
        .option('--label <label>', 'label of the new pane')
        .option('--ratio <fraction>', 'the share the target keeps, strictly between 0 and 1 (default 0.5)', fraction),
    ),
    'the new pane',
  )
    .option('--socket <path>', 'socket path')
    .action(async (id: string | undefined, flags: SplitFlags) => {
      const target = namedPane(id, flags) ?? (await focusedPane('cli:pane:split', flags)).pane_id;
      await send(
        'cli:pane:split',
        'pane.split',
        {
          target_pane_id: target,
          direction: flags.direction,
          focus: focusOf(flags, true),
          ...given('cwd', flags.cwd === undefined ? undefined : resolve(flags.cwd)),
          ...given('env', callerEnv(flags.env)),
          ...given('label', flags.label),
          ...given('ratio', flags.ratio),
        },
        flags,
        shown((result) => splitSentence(result, flags.direction)),
      );
    });

  paneTargetOptions(pane.command('current').description('show the pane this runs in: $HERDR_PANE_ID, else the pane this process runs in, else the focused pane'))
    .option('--caller-only', 'fail when this process runs in no pane, rather than show the focused pane')
    .option('--socket <path>', 'socket path')
    .action(async (flags: PaneTargetFlags & { callerOnly?: boolean }) => {
      // --current and no flag both mean the caller's pane: herdr's CLI sends $HERDR_PANE_ID; without it
      // the server finds the pane this process runs in (pane.current, docs/protocol.md §5.6).
      const id = flags.pane ?? callerPane();
      await send('cli:pane:current', 'pane.current', { ...given('caller_pane_id', id), ...given('caller_only', flags.callerOnly) }, flags, shown(paneFields));
    });
}
