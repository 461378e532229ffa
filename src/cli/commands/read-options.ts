/**
 * The read flags `herdr pane read` and `herdr agent read` share, in herdr's current
 * grammar (docs/protocol.md §11.3): sources are passed on as typed (this server has
 * `visible` and `recent`, and answers `recent-unwrapped` or `detection` with its own
 * `invalid_request` rather than the CLI quietly reading something else).
 */
import type { Command } from 'commander';
import type { ReadSource } from '../../protocol/enums.js';
import { given } from '../output.js';
import { nonNegativeInt, oneOf } from './parse.js';

/** The sources herdr's current CLI takes; the server decides which it has. */
export const CLI_READ_SOURCES = ['visible', 'recent', 'recent-unwrapped', 'detection'] as const;
export type CliReadSource = (typeof CLI_READ_SOURCES)[number];

export interface ReadFlags {
  source: CliReadSource;
  lines?: number;
  format: 'text' | 'ansi';
  ansi?: boolean;
  raw?: boolean;
}

export function readOptions(command: Command): Command {
  return command
    .option('--source <source>', CLI_READ_SOURCES.join(' | '), oneOf(...CLI_READ_SOURCES), 'recent')
    .option('--lines <n>', 'rows of recent text (default 80, at most 10000)', nonNegativeInt)
    .option('--format <format>', 'text | ansi (ansi keeps colour escapes)', oneOf('text', 'ansi'), 'text')
    .option('--ansi', 'same as --format ansi')
    .option('--raw', 'keep colour escapes (herdr 0.2.0\'s name for --format ansi)');
}

/** The read params the flags ask for; --format ansi, --ansi and --raw all keep the escapes. */
export function readParams(flags: ReadFlags): { source: ReadSource; lines?: number; format: 'text' | 'ansi' } {
  // Typed as the schema's sources, though it may be one the server refuses: its answer says so.
  return { source: flags.source as ReadSource, ...given('lines', flags.lines), format: flags.raw || flags.ansi || flags.format === 'ansi' ? 'ansi' : 'text' };
}
