/**
 * The flood's parse floor: the same input files the panes cat, as a PTY
 * hands them on, parsed by the panes' parsing pipelines alone
 * (parse-pipeline.ts) in worker threads, one per core, as our shards: no
 * PTY, no shell, no server. Run as a child process by parse-floor.ts, so its
 * CPU is the process's own: argv `<JSON list of one input file per pane>
 * <threads>`; reads the files and builds every pane's pipeline, prints
 * `ready`; each `go` on stdin feeds every pane its whole input once (the
 * same panes each time: the first run is the cold one) and prints
 * `done <bytes> <CPU µs of the process meanwhile>`; `quit` ends it.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { feedInTurn, parsePipeline, throughPty } from './parse-pipeline.js';

interface ParserData {
  files: string[];
}

function parserThread({ files }: ParserData): void {
  const port = parentPort;
  if (!port) return;
  const read = new Map<string, Buffer>();
  const inputs = files.map((file) => {
    const known = read.get(file) ?? throughPty(readFileSync(file));
    read.set(file, known);
    return known;
  });
  const feeds = files.map(() => parsePipeline());
  port.on('message', (message: string) => {
    if (message === 'go') port.postMessage(`done ${feedInTurn(feeds, inputs)}`);
  });
  port.postMessage('ready');
}

function coordinator(): void {
  const [filesArg = '[]', threadsArg] = process.argv.slice(2);
  const files = JSON.parse(filesArg) as string[];
  const threads = Math.max(1, Math.min(Number(threadsArg) || 1, files.length));
  const workers: Worker[] = [];
  let ready = 0;
  let done = 0;
  let bytes = 0;
  let cpuBefore = process.cpuUsage();
  for (let t = 0; t < threads; t++) {
    const share = files.filter((_, i) => i % threads === t);
    const worker = new Worker(new URL(import.meta.url), { workerData: { files: share } satisfies ParserData });
    worker.on('message', (message: string) => {
      if (message === 'ready' && ++ready === threads) process.stdout.write('ready\n');
      if (message.startsWith('done ')) {
        bytes += Number(message.slice(5));
        if (++done < threads) return;
        const cpu = process.cpuUsage(cpuBefore);
        process.stdout.write(`done ${bytes} ${cpu.user + cpu.system}\n`);
      }
    });
    worker.on('error', (error) => {
      process.stderr.write(`parse floor: ${error.stack ?? String(error)}\n`);
      process.exit(1);
    });
    workers.push(worker);
  }
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim();
    if (command === 'go') {
      done = 0;
      bytes = 0;
      cpuBefore = process.cpuUsage();
      for (const worker of workers) worker.postMessage('go');
    } else if (command === 'quit') {
      process.exit(0);
    }
  }).on('close', () => process.exit(0));
}

if (isMainThread) coordinator();
else parserThread(workerData as ParserData);
