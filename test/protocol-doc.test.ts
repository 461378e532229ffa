/**
 * docs/protocol.md and the code's tables must agree, in both directions: every
 * method of the method table is in the reference's method table and nothing
 * else is; the same for error codes, subscription kinds and event names.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../harness/server.js';
import { ERROR_CODES } from '../src/protocol/errors.js';
import { LIFECYCLE_KINDS, METHOD_PARAMS, WAITABLE_EVENTS } from '../src/protocol/methods.js';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'protocol.md'), 'utf8');

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

describe('docs/protocol.md against the code', () => {
  it('lists exactly the methods of the method table (§5)', () => {
    const documented = firstColumn(section('## 5. Methods'));
    assert.deepEqual(sorted(documented), sorted(Object.keys(METHOD_PARAMS)));
  });

  it('lists exactly the error codes (§2)', () => {
    const text = section('## 2. Envelopes');
    const line = text.split('\n- ').find((item) => item.startsWith('Error codes:')) ?? '';
    const documented = new Set([...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? ''));
    assert.deepEqual(sorted(documented), sorted(Object.keys(ERROR_CODES)));
  });

  it('lists exactly the subscription kinds and event names (§9.2)', () => {
    const rows = section('### 9.2 Event lines')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const kinds = rows.map((row) => /^\| `([^`]+)`/.exec(row)?.[1] ?? '');
    const events = rows.map((row) => /^\| `[^`]+` \| `([^`]+)`/.exec(row)?.[1] ?? '');
    assert.deepEqual(sorted(kinds), sorted([...LIFECYCLE_KINDS, 'pane.output_matched', 'pane.agent_state_changed']));
    assert.deepEqual(sorted(events), sorted([...WAITABLE_EVENTS, 'pane.output_matched']));
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
