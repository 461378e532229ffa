/**
 * `herdr pane read` and `herdr pane wait-output` (docs/protocol.md §11, §11.3), with herdr's
 * current flags (read-options.ts).
 */
import type { Command } from 'commander';
import { usageError } from '../failure.js';
import { type SocketOption, given, printJson, send, shown } from '../output.js';
import { outputMatched } from '../human/panes.js';
import { nonNegativeInt, oneOf } from './parse.js';
import { CLI_READ_SOURCES, CLI_READ_SOURCES_HELP, type CliReadSource, type ReadFlags, readOptions, readParams, wireSource } from './read-options.js';

interface WaitOutputFlags extends SocketOption {
  match?: string;
  regex?: string;
  source: CliReadSource;
  lines?: number;
  timeout?: number;
  raw?: boolean;
}

export function addPaneReadCommands(pane: Command): void {
  readOptions(pane.command('read').argument('<id>').description('print a pane\'s text'))
    .option('--json', 'print the server\'s whole answer (the text with its revision and ids) as one JSON line')
    .option('--socket <path>', 'socket path')
    .action((id: string, flags: ReadFlags & SocketOption & { json?: boolean }) =>
      send('cli:pane:read', 'pane.read', { pane_id: id, ...readParams(flags) }, flags, (response) =>
        flags.json ? printJson(response) : process.stdout.write(response.result.read.text),
      ),
    );

  pane
    .command('wait-output')
    .argument('<id>')
    .description('wait until a line of the pane matches --match TEXT or --regex PATTERN (prints the output_matched answer)')
    .option('--match <text>', 'a substring to wait for')
    .option('--regex <pattern>', 'an RE2 regular expression to wait for')
    .option('--source <source>', CLI_READ_SOURCES_HELP, oneOf(...CLI_READ_SOURCES), 'recent')
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
          source: wireSource(flags.source),
          match,
          ...given('lines', flags.lines),
          ...given('timeout_ms', flags.timeout),
          ...given('strip_ansi', flags.raw ? false : undefined),
        },
        flags,
        shown(outputMatched),
      );
    });
}
