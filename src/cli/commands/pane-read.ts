/**
 * `herdr pane read` and `herdr pane wait-output` (docs/protocol.md §11, §11.3), with herdr's
 * current flags. Read sources are passed on as typed: this server has `visible` and
 * `recent`, and answers `recent-unwrapped` or `detection` with its own `invalid_request`
 * rather than the CLI quietly reading something else.
 */
import type { Command } from 'commander';
import type { ReadSource } from '../../protocol/enums.js';
import { usageError } from '../failure.js';
import { type SocketOption, given, send } from '../output.js';
import { nonNegativeInt, oneOf } from './parse.js';

/** The sources herdr's current CLI takes; the server decides which it has. */
export const CLI_READ_SOURCES = ['visible', 'recent', 'recent-unwrapped', 'detection'] as const;
export type CliReadSource = (typeof CLI_READ_SOURCES)[number];

interface ReadFlags extends SocketOption {
  source: CliReadSource;
  lines?: number;
  format: 'text' | 'ansi';
  ansi?: boolean;
  raw?: boolean;
}

interface WaitOutputFlags extends SocketOption {
  match?: string;
  regex?: string;
  source: CliReadSource;
  lines?: number;
  timeout?: number;
  raw?: boolean;
}

/** Typed as the schema's sources, though it may be one the server refuses: its answer says so. */
const asSent = (source: CliReadSource) => source as ReadSource;

export function addPaneReadCommands(pane: Command): void {
  pane
    .command('read')
    .argument('<id>')
    .description('print a pane\'s text')
    .option('--source <source>', CLI_READ_SOURCES.join(' | '), oneOf(...CLI_READ_SOURCES), 'recent')
    .option('--lines <n>', 'rows of recent text (default 80, at most 10000)', nonNegativeInt)
    .option('--format <format>', 'text | ansi (ansi keeps colour escapes)', oneOf('text', 'ansi'), 'text')
    .option('--ansi', 'same as --format ansi')
    .option('--raw', 'keep colour escapes (strip_ansi: false)')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: ReadFlags) =>
      send(
        'cli:pane:read',
        'pane.read',
        {
          pane_id: id,
          source: asSent(flags.source),
          ...given('lines', flags.lines),
          // This server has one coloured form: --format ansi, --ansi and --raw all ask for it.
          strip_ansi: !(flags.raw || flags.ansi || flags.format === 'ansi'),
        },
        flags,
        (response) => process.stdout.write(response.result.read.text),
      ),
    );

  pane
    .command('wait-output')
    .argument('<id>')
    .description('wait until a line of the pane matches --match TEXT or --regex PATTERN (prints the output_matched answer)')
    .option('--match <text>', 'a substring to wait for')
    .option('--regex <pattern>', 'an RE2 regular expression to wait for')
    .option('--source <source>', CLI_READ_SOURCES.filter((s) => s !== 'detection').join(' | '), oneOf('visible', 'recent', 'recent-unwrapped'), 'recent')
    .option('--lines <n>', 'rows of recent text to search', nonNegativeInt)
    .option('--timeout <ms>', 'give up after this long (default: wait until matched)', nonNegativeInt)
    .option('--raw', 'match against the text with its colour escapes (strip_ansi: false)')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: WaitOutputFlags) => {
      if ((flags.match === undefined) === (flags.regex === undefined)) usageError('give one of --match TEXT or --regex PATTERN');
      const match = flags.regex === undefined ? { type: 'substring' as const, value: flags.match ?? '' } : { type: 'regex' as const, value: flags.regex };
      return send(
        'cli:pane:wait-output',
        'pane.wait_for_output',
        {
          pane_id: id,
          source: asSent(flags.source),
          match,
          ...given('lines', flags.lines),
          ...given('timeout_ms', flags.timeout),
          ...given('strip_ansi', flags.raw ? false : undefined),
        },
        flags,
      );
    });
}
