/**
 * Records what a pane's program writes, at its own timing, through `pane.stream`:
 *
 *   node dist/bench/tools/record-pane.js <pane_id> <out> [--socket PATH] [--signals]
 *
 * writes `<out>.bin` (the bytes, byte-exact) and `<out>.timing` (one line per chunk:
 * milliseconds since the first chunk, then its length), the format the bench replays at the
 * recorded pace. `--signals` also prints, as they come, the sequences that tell a program's
 * state or wishes (OSC titles and statuses, keyboard-protocol and mode changes), to study a CLI.
 * Ends when the pane exits or on Ctrl-C.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HerdrClient } from '../../src/client/client.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { socket: { type: 'string' }, signals: { type: 'boolean', default: false } } });
const [paneId, out] = positionals;
if (!paneId || !out) {
  console.error('usage: record-pane <pane_id> <out> [--socket PATH] [--signals]');
  process.exit(2);
}
const client = new HerdrClient(values.socket ? { socketPath: values.socket } : {});
const stream = await client.stream(paneId, { look: false });
writeFileSync(`${out}.bin`, '');
writeFileSync(`${out}.timing`, '');
let first: number | undefined;
/** OSC, private-mode and keyboard-protocol sequences, printed readable with --signals. */
const SIGNAL = /\x1b\](?:0|1|2|7|8|9|133|633|777|7501)[;][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[?>=<]\d*(?:;\d+)*[a-zA-Z]|\x1b\[\?u/g;
process.on('SIGINT', () => process.exit(0));
for await (const line of stream) {
  if (line.event === 'pane.exited') break;
  if (line.event !== 'pane.output') continue;
  const bytes = Buffer.from(line.data.bytes, 'base64');
  const now = performance.now();
  first ??= now;
  const at = Math.round(now - first);
  appendFileSync(`${out}.bin`, bytes);
  appendFileSync(`${out}.timing`, `${at} ${bytes.length}\n`);
  if (values.signals) {
    for (const match of bytes.toString('utf8').matchAll(SIGNAL)) console.log(`${at}\t${JSON.stringify(match[0])}`);
  }
}
process.exit(0);
