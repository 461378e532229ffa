/**
 * The machine's ceiling for the flood: node-pty reading the same shells'
 * `cat` output in worker threads (one per core, as our shards) and throwing
 * the bytes away: no emulator, no history. Run as a child process by
 * ceiling.ts: argv `<JSON list of one command line per pane> <threads>`;
 * prints `ready`, waits for `go` on stdin, types each shell its command, prints `done <bytes>`
 * once every pane's stream showed the end mark.
 */
import { createInterface } from 'node:readline';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as pty from 'node-pty';
import { COLS, END_MARK, PROMPT, ROWS, SHELL } from '../environment.js';

interface ReaderData {
  commands: string[];
}

function readerThread({ commands }: ReaderData): void {
  const panes = commands.length;
  const port = parentPort;
  if (!port) return;
  const terminals: pty.IPty[] = [];
  let ready = 0;
  let done = 0;
  let bytes = 0;
  let started = false;
  for (let i = 0; i < panes; i++) {
    const term = pty.spawn(SHELL, [], { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: process.cwd(), env: process.env as Record<string, string>, encoding: null });
    let tail = '';
    let prompted = false;
    let finished = false;
    term.onData((data: unknown) => {
      const chunk = data as Buffer;
      if (!started) {
        if (!prompted && chunk.includes(PROMPT.trim())) {
          prompted = true;
          if (++ready === panes) port.postMessage('ready');
        }
        return;
      }
      bytes += chunk.length;
      if (finished) return;
      // The mark is inside this chunk, or straddles its start: then it lies in the previous bytes' last
      // END_MARK.length - 1 and this chunk's first as many (a chunk of any size after it).
      const head = chunk.toString('latin1', 0, Math.min(chunk.length, END_MARK.length - 1));
      if (chunk.includes(END_MARK) || (tail + head).includes(END_MARK)) {
        finished = true;
        if (++done === panes) port.postMessage(`done ${bytes}`);
      }
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - (END_MARK.length - 1)))).slice(-(END_MARK.length - 1));
    });
    terminals.push(term);
  }
  port.on('message', (message: string) => {
    if (message === 'go') {
      started = true;
      terminals.forEach((term, i) => term.write(`${commands[i]}\r`));
    } else if (message === 'quit') {
      for (const term of terminals) term.kill('SIGKILL');
      setTimeout(() => process.exit(0), 100);
    }
  });
}

function coordinator(): void {
  const [commandsArg = '[]', threadsArg] = process.argv.slice(2);
  const commands = JSON.parse(commandsArg) as string[];
  const panes = commands.length;
  const threads = Math.max(1, Math.min(Number(threadsArg), panes));
  const workers: Worker[] = [];
  let ready = 0;
  let done = 0;
  let bytes = 0;
  for (let t = 0; t < threads; t++) {
    const share = commands.filter((_, i) => i % threads === t);
    const worker = new Worker(new URL(import.meta.url), { workerData: { commands: share } satisfies ReaderData });
    worker.on('message', (message: string) => {
      if (message === 'ready' && ++ready === threads) process.stdout.write('ready\n');
      if (message.startsWith('done ')) {
        bytes += Number(message.slice(5));
        if (++done === threads) process.stdout.write(`done ${bytes}\n`);
      }
    });
    workers.push(worker);
  }
  createInterface({ input: process.stdin }).on('line', (line) => {
    for (const worker of workers) worker.postMessage(line.trim());
    if (line.trim() === 'quit') setTimeout(() => process.exit(0), 500);
  });
}

if (isMainThread) coordinator();
else readerThread(workerData as ReaderData);
