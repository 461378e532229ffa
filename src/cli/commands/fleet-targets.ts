/** The servers of a fleet command (`herdr watch`, `herdr fleet …`): the local one and every `--host`. */
import type { Command } from 'commander';
import { type HostTarget, dialerFor } from '../../client/transport.js';

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
