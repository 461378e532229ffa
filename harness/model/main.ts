/**
 * The scripted model server on its own, for a person studying a CLI by hand:
 *
 *   node dist/harness/model/main.js [--port N] [--script turns.json]
 *
 * With `--dump DIR`, each request's body goes to DIR/<seq>.json.
 * `turns.json` is an AgentScript by key (`{"*": {"turns": [{"when": "list", "steps": [{"shell": "ls"}]}]}}`).
 * Prints its address, then one line per request and per refused outbound attempt.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentScript } from './script.js';
import { ModelServer } from './server.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, script: { type: 'string' }, dump: { type: 'string' } } });
const model = await ModelServer.start(Number(values.port));
if (values.script) {
  const scripts = JSON.parse(readFileSync(values.script, 'utf8')) as Record<string, AgentScript>;
  for (const [key, script] of Object.entries(scripts)) model.script(key, script);
}
console.log(`scripted model on ${model.url}`);
let requests = 0;
let outbound = 0;
let unknown = 0;
setInterval(() => {
  for (; requests < model.requests.length; requests++) {
    const r = model.requests[requests];
    if (!r) break;
    const what = r.newUserText !== undefined ? `user ${JSON.stringify(r.newUserText.slice(-80))}` : r.toolResult !== undefined ? `tool result ${JSON.stringify(r.toolResult.slice(0, 80))}` : '';
    if (values.dump) {
      mkdirSync(values.dump, { recursive: true });
      writeFileSync(join(values.dump, `${r.seq}.json`), JSON.stringify({ path: r.path, key: r.key, body: r.body }, null, 1));
    }
    console.log(`#${r.seq} ${r.dialect} ${r.kind} ${r.path} model=${r.model} key=${r.key.slice(0, 24)} ${what}${r.called ? ` → calls ${r.called}` : ''}`);
  }
  for (; outbound < model.outbound.length; outbound++) console.log(`refused outbound: ${model.outbound[outbound]?.target}`);
  for (; unknown < model.unknown.length; unknown++) console.log(`not served: ${model.unknown[unknown]?.method} ${model.unknown[unknown]?.path}`);
}, 200);
