/** `herdr web` in a child process against a server's socket, for the tests and the bench: its URL (token included) from its first line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { HERDR_BIN } from './server.js';

export interface WebProcess {
  /** The URL printed, with its token. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`, no token. */
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** `nodeArgs` go before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
export function startWebProcess(socketPath: string, args: string[] = [], nodeArgs: string[] = []): Promise<WebProcess> {
  const child = spawn(process.execPath, [...nodeArgs, HERDR_BIN, 'web', '--socket', socketPath, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (!stdout.includes('\n') || line === undefined) return;
      const url = new URL(line);
      resolve({
        url: line,
        origin: url.origin,
        token: url.searchParams.get('token') ?? '',
        child,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`herdr web exited (${code}) before printing its URL: ${stderr}`)));
  });
}
