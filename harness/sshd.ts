/**
 * A real OpenSSH server for the remote tests and the bench: Debian's sshd on 127.0.0.1 at a
 * free high port, with a host key and a client key made for the run and the
 * current user authorized. The key's forced command puts a `herdr` (this
 * checkout's CLI) on the PATH and the "remote" server's socket in
 * HERDR_SOCKET_PATH, then runs what the client asked for, so a client's
 * `ssh -T host herdr dial-stdio` runs exactly that on the other side.
 * Clients use `ssh -F <config>`: host aliases `herdr-test` (this sshd) and
 * `herdr-refused` (a port nothing listens on).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { eventually } from './poll.js';
import { HERDR_BIN, tempDir } from './server.js';

export const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  /** The alias of this sshd in the client config. */
  host: string;
  /** An alias whose port refuses connections. */
  refusedHost: string;
  /** `ssh -T -F <config>`: what `--ssh-command` gets. */
  sshCommand: string;
  port: number;
  stop(): void;
}

/** Why the remote tests cannot run here, or undefined when they can. */
export function sshdMissing(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is not installed (apt-get install openssh-server); the ssh tests are skipped`;
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startSshd(remoteSocketPath: string): Promise<TestSshd> {
  const dir = tempDir('herdr-sshd-');
  const key = (name: string) => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(dir, name)]);
    return readFileSync(join(dir, `${name}.pub`), 'utf8').trim();
  };
  const hostKey = key('host_key');
  const clientKey = key('client_key');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(HERDR_BIN, join(bin, 'herdr'));
  const path = `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;
  const forced = `env PATH=${path} HERDR_SOCKET_PATH=${remoteSocketPath} sh -c '$SSH_ORIGINAL_COMMAND'`;
  writeFileSync(join(dir, 'authorized_keys'), `command="${forced}",no-pty,no-port-forwarding,no-agent-forwarding,no-X11-forwarding ${clientKey}\n`, { mode: 0o600 });
  const port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  sshd.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`);
  const user = userInfo().username;
  const client = (alias: string, clientPort: number) => [
    `Host ${alias}`,
    '  HostName 127.0.0.1',
    `  Port ${clientPort}`,
    `  User ${user}`,
    `  IdentityFile ${join(dir, 'client_key')}`,
    '  IdentitiesOnly yes',
    `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
    '  StrictHostKeyChecking yes',
    '  BatchMode yes',
    '  LogLevel ERROR',
  ];
  writeFileSync(join(dir, 'ssh_config'), [...client('herdr-test', port), ...client('herdr-refused', await freePort()), ''].join('\n'));
  const sshCommand = `ssh -T -F ${join(dir, 'ssh_config')}`;
  await eventually(() => {
    if (sshd.exitCode !== null) throw new Error(`sshd exited: ${log}`);
    try {
      execFileSync('ssh', ['-F', join(dir, 'ssh_config'), '-o', 'ConnectTimeout=2', 'herdr-test', 'true'], { stdio: 'ignore', timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  }, `sshd on port ${port} to take a login`, 15_000, 100);
  return { host: 'herdr-test', refusedHost: 'herdr-refused', sshCommand, port, stop: () => sshd.kill() };
}
