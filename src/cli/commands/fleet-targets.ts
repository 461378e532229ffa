/** The servers of a fleet command (`herdr watch`, `herdr fleet …`): the local one and every `--host`. */
import type { Command } from 'commander';
import { HerdrClient } from '../../client/client.js';
import { type HostTarget, dialerFor } from '../../client/transport.js';
import { EXIT, exitCodeOf } from '../exit-codes.js';
import { messageOf } from '../failure.js';

export interface FleetFlags {
  socket?: string;
  host: string[];
  local: boolean;
  sshCommand?: string;
}

/** Adds the options every fleet command takes. */
export function fleetOptions(command: Command): Command {
  return command
    .option('--host <[user@]host>', 'a server to include, over ssh (repeat for more; also $HERDR_HOST)', (value: string, previous: string[]) => [...previous, value], [])
    .option('--no-local', 'leave out the local server')
    .option('--ssh-command <command>', 'how ssh is run, split at spaces (default: $HERDR_SSH_COMMAND, else "ssh -T")')
    .option('--socket <path>', 'the local server\'s socket path');
}

export function fleetTargets(flags: FleetFlags): HostTarget[] {
  const hosts = [...new Set([...flags.host, ...(flags.host.length === 0 && process.env.HERDR_HOST ? [process.env.HERDR_HOST] : [])])];
  const sshCommand = flags.sshCommand ?? process.env.HERDR_SSH_COMMAND;
  const targets: HostTarget[] = flags.local || hosts.length === 0 ? [{ host: undefined, dialer: dialerFor(flags.socket ? { socketPath: flags.socket } : {}) }] : [];
  for (const host of hosts) targets.push({ host, dialer: dialerFor({ host, ...(sshCommand ? { sshCommand } : {}) }) });
  return targets;
}

export interface ServerAnswer<T> {
  /** undefined: the local server. */
  host: string | undefined;
  value: T;
}

export interface ServerFailure {
  host: string | undefined;
  error: unknown;
}

/** One question to every server at once, each on a connection of its own (`--once` views, `fleet list`). */
export async function askEveryServer<T>(targets: readonly HostTarget[], ask: (client: HerdrClient) => Promise<T>): Promise<{ answers: ServerAnswer<T>[]; failures: ServerFailure[] }> {
  const answers: ServerAnswer<T>[] = [];
  const failures: ServerFailure[] = [];
  await Promise.all(
    targets.map(async (target) => {
      try {
        answers.push({ host: target.host, value: await ask(new HerdrClient({ dialer: target.dialer, keepAlive: false })) });
      } catch (error) {
        failures.push({ host: target.host, error });
      }
    }),
  );
  return { answers, failures };
}

/** Each server that could not be asked as one line on stderr (after the others' output); the exit code: 1 when any failed. */
export function reportUnreachable(failures: readonly ServerFailure[]): number {
  for (const { host, error } of failures) process.stderr.write(`herdr: ${host ?? 'local server'}: unreachable (${messageOf(error)})\n`);
  return Math.max(EXIT.ok, ...failures.map(({ error }) => exitCodeOf(error)));
}
