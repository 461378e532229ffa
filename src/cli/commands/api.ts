/**
 * `herdr api snapshot` and `herdr api schema` (docs/protocol.md §11.3): herdr's current
 * names for `session.snapshot` and for what `herdr schema` prints.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { fail, messageOf } from '../failure.js';
import { type SocketOption, send } from '../output.js';
import { SCHEMA_DESCRIPTION, schemaText } from './schema.js';

export function addApiCommands(program: Command): void {
  const api = program.command('api').description('the socket API itself: a snapshot of the session, the schema');

  api
    .command('snapshot')
    .description('print every workspace, pane, layout and agent in one answer (session.snapshot)')
    // A snapshot is data for programs: JSON on a terminal too.
    .option('--json', 'print the answer as JSON (its only form)')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) => send('cli:api:snapshot', 'session.snapshot', {}, flags));

  api
    .command('schema')
    .description(`${SCHEMA_DESCRIPTION} (as herdr schema)`)
    // The schema is JSON either way; --json is herdr's spelling and changes nothing.
    .option('--json', 'print JSON (the only form)')
    .option('--output <path>', 'write it to this file instead of stdout')
    .action(async (flags: { json?: boolean; output?: string }) => {
      const text = await schemaText();
      if (flags.output === undefined) return void process.stdout.write(text);
      try {
        writeFileSync(flags.output, text);
      } catch (error) {
        fail(`cannot write ${flags.output}: ${messageOf(error)}`);
      }
    });
}
