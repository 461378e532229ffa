/** Runs canned-server.ts (the request ceiling) as its own process for the length of `use`. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchEnvironment } from '../environment.js';

const CANNED_SERVER = fileURLToPath(new URL('./canned-server.js', import.meta.url));

export async function withCannedServer<T>(environment: BenchEnvironment, use: (socketPath: string) => Promise<T>): Promise<T> {
  const socketPath = join(environment.dir, 'canned.sock');
  rmSync(socketPath, { force: true }); // the last turn's server was killed, its socket file stays
  // A session of its own, like every server the bench measures (harness/server.ts, ownSession).
  const child = spawn(process.execPath, [CANNED_SERVER, socketPath], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  try {
    const lines = createInterface({ input: child.stdout });
    await Promise.race([
      once(lines, 'line'),
      once(child, 'exit').then(([code]) => Promise.reject(new Error(`the canned server exited (${String(code)}) before listening`))),
    ]);
    return await use(socketPath);
  } finally {
    child.kill();
  }
}
