/**
 * Shard worker entry: wires the main thread's messages to the shard's
 * runtime (shard-runtime.ts). It posts back replies and batched changes;
 * output chunks only of panes someone streams (`pane.stream`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromShard, ShardInit, ToShard } from '../protocol/thread.js';
import { ShardRuntime } from './shard-runtime.js';
import { lowerThreadPriority } from './thread-priority.js';

if (!parentPort) throw new Error('shard.ts must run in a worker thread');
const port = parentPort;
const init = workerData as ShardInit;
lowerThreadPriority(init.nice);
const runtime = new ShardRuntime(init, (message: FromShard, transfer?: ArrayBuffer[]) =>
  port.postMessage(message, transfer),
);
port.on('message', (message: ToShard) => void runtime.handle(message));
process.on('exit', (code) => port.postMessage({ kind: 'exiting', code } satisfies FromShard));
