/**
 * docs/protocol.md and the code's tables must agree, in both directions: every
 * method of the method table is in the reference's method table and nothing
 * else is; the same for error codes, subscription kinds and event names. The
 * committed docs/protocol.schema.json is what `herdr schema` prints and what
 * the code generates, and names the same methods, events and error codes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { HERDR_BIN, REPO_ROOT } from '../harness/server.js';
import { ERROR_CODES } from '../src/protocol/errors.js';
import { OVERFLOW_EVENT } from '../src/protocol/events.js';
import { protocolJsonSchema } from '../src/protocol/json-schema.js';
import { LIFECYCLE_KINDS } from '../src/protocol/event-catalogue.js';
import { METHOD_PARAMS, WAITABLE_EVENTS, subscriptionSchema } from '../src/protocol/methods.js';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'protocol.md'), 'utf8');
const SCHEMA_FILE = join(REPO_ROOT, 'docs', 'protocol.schema.json');
const committedSchema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as {
  methods: Record<string, { params: object; result: object }>;
  events: Record<string, object>;
  error_codes: Record<string, string>;
};

/** The text of one section, from its heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = doc.indexOf(`\n${heading}`);
  assert.ok(start >= 0, `docs/protocol.md has "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = doc.slice(start + heading.length + 1);
  const next = rest.search(new RegExp(`\\n#{1,${level}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The backticked names in the first column of a section's table rows. */
function firstColumn(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const cell = /^\| ([^|]*)\|/.exec(line)?.[1];
    if (!cell || /^-+\s*$/.test(cell.trim())) continue;
    for (const match of cell.matchAll(/`([^`]+)`/g)) names.add(match[1] ?? '');
  }
  return names;
}

const sorted = (items: Iterable<string>) => [...items].sort();

/** The error codes of §2's "Error codes:" item. */
function documentedErrorCodes(): Set<string> {
  const line = section('## 2. Envelopes').split('\n- ').find((item) => item.startsWith('Error codes:')) ?? '';
  return new Set([...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? ''));
}

/** §9.2's table: the subscription kind and the event name of each row. */
function documentedEvents(): { kinds: string[]; events: string[] } {
  const rows = section('### 9.2 Event lines')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return {
    kinds: rows.map((row) => /^\| `([^`]+)`/.exec(row)?.[1] ?? ''),
    events: rows.map((row) => /^\| `[^`]+` \| `([^`]+)`/.exec(row)?.[1] ?? ''),
  };
}

describe('docs/protocol.md against the code', () => {
  it('lists exactly the methods of the method table (§5)', () => {
    const documented = firstColumn(section('## 5. Methods'));
    assert.deepEqual(sorted(documented), sorted(Object.keys(METHOD_PARAMS)));
  });

  it('lists exactly the error codes (§2)', () => {
    assert.deepEqual(sorted(documentedErrorCodes()), sorted(Object.keys(ERROR_CODES)));
  });

  it('lists exactly the subscription kinds and event names (§9.2)', () => {
    const { kinds, events } = documentedEvents();
    const subscribable = subscriptionSchema.options.map((option) => option.shape.type.value);
    assert.deepEqual(sorted(kinds), sorted(subscribable));
    assert.ok(LIFECYCLE_KINDS.every((kind) => kinds.includes(kind)));
    // server.restored is told once, at subscription (docs/persistence.md): nothing to wait for.
    assert.deepEqual(sorted(events), sorted([...WAITABLE_EVENTS, 'pane.output_matched', 'server.restored']));
  });

  it('has the JSON Schema the code generates committed, and `herdr schema` prints it', async () => {
    assert.deepEqual(committedSchema, protocolJsonSchema(), 'docs/protocol.schema.json is stale: npx herdr schema > docs/protocol.schema.json');
    const { stdout } = await promisify(execFile)(process.execPath, [HERDR_BIN, 'schema']);
    assert.equal(stdout, readFileSync(SCHEMA_FILE, 'utf8'));
  });

  it('names in the schema the methods, events and error codes the reference lists', () => {
    assert.deepEqual(sorted(Object.keys(committedSchema.methods)), sorted(firstColumn(section('## 5. Methods'))));
    for (const [method, { params, result }] of Object.entries(committedSchema.methods)) {
      assert.equal((params as { type?: string }).type, 'object', `${method} params`);
      // One object, or (where the dialects answer differently, §15.3) a choice of objects;
      // none at all (`not: {}`) for a method always answered `unsupported` (§5.5).
      const shapes = (result as { anyOf?: Array<{ type?: string }> }).anyOf ?? [result as { type?: string }];
      const never = JSON.stringify((result as { not?: unknown }).not) === '{}';
      assert.ok(never || shapes.every((shape) => shape.type === 'object'), `${method} result`);
    }
    assert.deepEqual(sorted(Object.keys(committedSchema.events)), sorted([...documentedEvents().events, OVERFLOW_EVENT]));
    assert.ok(section('### 9.4 A slow reader').includes(OVERFLOW_EVENT));
    assert.deepEqual(sorted(Object.keys(committedSchema.error_codes)), sorted(documentedErrorCodes()));
  });

  it('is where every section the source cites is', () => {
    const cited = new Set<string>();
    const sources = ['src', 'test', 'bench', 'harness'].flatMap((dir) => listFiles(join(REPO_ROOT, dir)));
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(/docs\/protocol\.md §(\d+(?:\.\d+)?)/g)) cited.add(match[1] ?? '');
    }
    assert.ok(cited.size > 10, `sections cited: ${[...cited].join(', ')}`);
    for (const number of cited) {
      assert.match(doc, new RegExp(`\\n#{2,3} ${number.replace('.', '\\.')}\\.? `), `§${number} is a heading of docs/protocol.md`);
    }
  });
});

/** The TypeScript files under `dir`. */
function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}
