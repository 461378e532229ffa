/**
 * Shard worker entry: wires the main thread's messages to the shard's
 * runtime (shard-runtime.ts). It posts back replies and batched changes;
 * output chunks only of panes someone streams (`pane.stream`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromShard, ShardInit, ToShard } from '../protocol/thread.js';
import { ShardRuntime } from './shard-runtime.js';

if (!parentPort) throw new Error('shard.ts must run in a worker thread');
const port = parentPort;
const runtime = new ShardRuntime(workerData as ShardInit, (message: FromShard, transfer?: ArrayBuffer[]) =>
  port.postMessage(message, transfer),
);
port.on('message', (message: ToShard) => void runtime.handle(message));
process.on('exit', (code) => port.postMessage({ kind: 'exiting', code } satisfies FromShard));
