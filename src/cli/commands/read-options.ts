/**
 * The read flags `herdr pane read`, `herdr pane wait-output` and `herdr agent read` share, in
 * herdr's current grammar (docs/protocol.md §11.3): `--source` takes the wire's names and
 * herdr's CLI spelling `recent-unwrapped`.
 */
import type { Command } from 'commander';
import type { ReadSource } from '../../protocol/enums.js';
import { given } from '../output.js';
import { nonNegativeInt, oneOf } from './parse.js';

/** The sources herdr's current CLI takes: the wire's names, and `recent-unwrapped` as herdr's CLI spells it. */
export const CLI_READ_SOURCES = ['visible', 'recent', 'recent-unwrapped', 'recent_unwrapped', 'detection'] as const;
export type CliReadSource = (typeof CLI_READ_SOURCES)[number];
/** What `--help` lists (one spelling each). */
export const CLI_READ_SOURCES_HELP = 'visible | recent | recent-unwrapped | detection';

/** The source as the wire names it. */
export function wireSource(source: CliReadSource): ReadSource {
  return source === 'recent-unwrapped' ? 'recent_unwrapped' : source;
}

export interface ReadFlags {
  source: CliReadSource;
  lines?: number;
  format: 'text' | 'ansi';
  ansi?: boolean;
  raw?: boolean;
}

export function readOptions(command: Command): Command {
  return command
    .option('--source <source>', CLI_READ_SOURCES_HELP, oneOf(...CLI_READ_SOURCES), 'recent')
    .option('--lines <n>', 'rows of recent text (default 80, at most 10000)', nonNegativeInt)
    .option('--format <format>', 'text | ansi (ansi keeps colour escapes)', oneOf('text', 'ansi'), 'text')
    .option('--ansi', 'same as --format ansi')
    .option('--raw', 'keep colour escapes (herdr 0.2.0\'s name for --format ansi)');
}

/** The read params the flags ask for; --format ansi, --ansi and --raw all keep the escapes. */
export function readParams(flags: ReadFlags): { source: ReadSource; lines?: number; format: 'text' | 'ansi' } {
  return { source: wireSource(flags.source), ...given('lines', flags.lines), format: flags.raw || flags.ansi || flags.format === 'ansi' ? 'ansi' : 'text' };
}
