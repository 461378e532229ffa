/** `herdr web` (docs/web.md): wiring only; the page and its server are src/web. */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { VERSION } from '../../protocol/version.js';
import { exitWith } from '../failure.js';
import { type FleetFlags, fleetOptions, fleetTargets } from './fleet-targets.js';
import { nonNegativeInt, positiveInt } from './parse.js';

interface WebFlags extends FleetFlags {
  port?: number;
  listen?: string;
  readOnly?: boolean;
  fps?: number;
}

function port(value: string): number {
  const n = nonNegativeInt(value);
  if (n > 65535) throw new InvalidArgumentError(`expected a port from 0 to 65535, got ${value}`);
  return n;
}

export function addWebCommand(program: Command): void {
  fleetOptions(
    program
      .command('web')
      .description('the fleet in a browser: every pane a live tile, one large to type into (docs/web.md); prints the URL with its token')
      .option('--port <n>', 'the port (0: any free one)', port, 7400)
      .option('--listen <address>', 'the address to listen on (default 127.0.0.1; anything else is reachable from the network: prefer ssh -L)')
      .option('--read-only', 'watch only: no typing, prompting, starting or closing')
      .option('--fps <n>', 'tile frames per second', positiveInt, 10),
  ).action(async (flags: WebFlags) => {
    try {
      // Loaded here, not with the CLI: ws and the page are for this command only.
      const { startWeb, isLoopback, DEFAULT_LISTEN } = await import('../../web/server.js');
      const listen = flags.listen ?? DEFAULT_LISTEN;
      if (!isLoopback(listen)) {
        process.stderr.write(`herdr web: warning: listening on ${listen}, not loopback: anyone who can reach it and has the token drives your panes; ssh -L is the safe way in (docs/web.md)\n`);
      }
      const web = await startWeb({
        targets: fleetTargets(flags),
        listen,
        readOnly: flags.readOnly === true,
        version: VERSION,
        ...(flags.port === undefined ? {} : { port: flags.port }),
        ...(flags.fps === undefined ? {} : { fps: flags.fps }),
      });
      process.stdout.write(`${web.url}\n`);
      const stop = () => void web.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    } catch (error) {
      exitWith(error);
    }
  });
}
