/**
 * Where a client's connections go: the local server's unix socket, or a
 * remote server over the user's own OpenSSH (`ssh -T <host> herdr
 * dial-stdio`, docs/remote.md). Either way a connection is a byte stream of
 * newline-delimited JSON; everything above this file is the same for both.
 * Nothing of ours listens on a network port: authentication and encryption
 * are SSH's, and `~/.ssh/config` (keys, agents, jump hosts) applies as is.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { Duplex } from 'node:stream';
import { resolveSocketPath } from '../protocol/socket-path.js';
import { ConnectionError, connectError } from './errors.js';

/** The ssh client and its flags when `--ssh-command` does not say otherwise. */
export const DEFAULT_SSH_COMMAND = ['ssh', '-T'];
/** What runs on the remote host. */
export const REMOTE_COMMAND = ['herdr', 'dial-stdio'];

export interface Dialer {
  /** How errors name the server: `the server at /path` or `buildbox (over ssh)`. */
  readonly where: string;
  /** The host of a remote server; undefined for the local one. */
  readonly host: string | undefined;
  /** A new connection, ready to write; rejects with ConnectionError when the server cannot be reached. */
  dial(): Promise<Duplex>;
}

/** One server of several (`herdr watch`, `herdr fleet`, `herdr mcp`, `herdr web`): its host (undefined: the local one) and how to reach it. */
export interface HostTarget {
  host: string | undefined;
  dialer: Dialer;
}

export interface TargetOptions {
  socketPath?: string;
  /** `[user@]host` of a remote server. */
  host?: string;
  /** The command that runs ssh (default `ssh -T`), split at spaces; the host and `herdr dial-stdio` are appended. */
  sshCommand?: string | string[];
}

export function dialerFor(options: TargetOptions = {}): Dialer {
  if (options.host) return sshDialer(options.host, options.sshCommand);
  return socketDialer(options.socketPath ?? resolveSocketPath());
}

/** A socket path as its dialer; a dialer as itself. */
export function asDialer(target: string | Dialer): Dialer {
  return typeof target === 'string' ? socketDialer(target) : target;
}

export function socketDialer(socketPath: string): Dialer {
  return {
    where: `the server at ${socketPath}`,
    host: undefined,
    dial: () =>
      new Promise((resolve, reject) => {
        const socket = connect(socketPath);
        socket.once('connect', () => {
          socket.removeAllListeners('error');
          resolve(socket);
        });
        socket.once('error', (error) => reject(connectError(socketPath, error)));
      }),
  };
}

/** The ssh program and its flags: `command` split at spaces (no shell), or the default. */
export function sshArgv(command: string | string[] | undefined): string[] {
  if (command === undefined) return DEFAULT_SSH_COMMAND;
  const words = typeof command === 'string' ? command.split(/\s+/).filter(Boolean) : command;
  if (words.length === 0) throw new ConnectionError('--ssh-command is empty');
  return words;
}

export function sshDialer(host: string, sshCommand?: string | string[]): Dialer {
  const [program = 'ssh', ...flags] = sshArgv(sshCommand);
  return {
    where: `${host} (over ssh)`,
    host,
    dial: () =>
      new Promise((resolve, reject) => {
        // argv, never a shell: the host name is one argument, whatever it holds.
        const child = spawn(program, [...flags, '--', host, ...REMOTE_COMMAND], { stdio: ['pipe', 'pipe', 'pipe'] });
        child.once('error', (error) => reject(new ConnectionError(`cannot run ${program}: ${error.message}`)));
        child.once('spawn', () => resolve(new SshLink(child, host)));
      }),
  };
}

/**
 * One ssh process as a duplex stream: its stdin and stdout carry the
 * connection; its stderr is kept for the error a failed ssh owes the user.
 * Destroying the stream ends the ssh process.
 */
class SshLink extends Duplex {
  private stderr = '';
  private received = false;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly host: string,
  ) {
    // When ssh's output ends, so does the link (and 'close' follows), as with a socket.
    super({ allowHalfOpen: false });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4096)));
    child.stdout.on('data', (chunk: Buffer) => {
      this.received = true;
      if (!this.push(chunk)) child.stdout.pause();
    });
    child.stdin.on('error', () => undefined); // ssh gone: its exit says why
    child.once('close', (code) => {
      if (code !== 0 && !this.received) this.destroy(new ConnectionError(this.failure(code)));
      else this.push(null);
    });
  }

  override _read(): void {
    this.child.stdout.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.child.stdin.writable) this.child.stdin.write(chunk, () => done());
    else done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.child.stdin.end();
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    done(error);
  }

  /** One line: what ssh said last, or how it ended. */
  private failure(code: number | null): string {
    const said = this.stderr.trim().split('\n').filter(Boolean).at(-1);
    return `cannot reach ${this.host} over ssh: ${said ?? `ssh exited with code ${code}`}`;
  }
}
