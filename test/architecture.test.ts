/**
 * The floors of the house (ARCHITECTURE.md, "Map"): which folder of src/ may
 * import which, and no import circles. Read from the sources, so a new import
 * that crosses a floor fails here, not in review.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** What each room may import besides itself; a room not listed may import nothing of ours. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  protocol: [],
  os: ['protocol'],
  workers: ['protocol', 'os'],
  main: ['protocol', 'os', 'integrations'],
  // Agent CLIs' configuration files (herdr integration): pure file editing, for the server and the CLI alike.
  integrations: ['protocol'],
  client: ['protocol'],
  cli: ['client', 'protocol', 'os', 'integrations'],
  mcp: ['client', 'protocol'],
  web: ['client', 'protocol'],
  // src/index.ts, the package's entry: the client library.
  '.': ['client', 'protocol'],
};
/** The doors between floors: `herdr server` starts the server, `herdr mcp` the MCP server, `herdr web` the page's server. */
const DOORS = new Set(['cli/commands/server.ts → main', 'cli/commands/mcp.ts → mcp', 'cli/commands/web.ts → web']);

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each source file (relative to src/) and the files of ours it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      // Ours are relative and end in .js (the page's CSS is bundled, not imported by TypeScript).
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) continue;
      targets.push(relative(SRC, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const roomOf = (path: string) => (path.includes('/') ? (path.split('/')[0] ?? '.') : '.');

describe('the floors of src/', () => {
  const graph = importGraph();

  it('reads the imports it checks (a sanity check of the reader itself)', () => {
    assert.ok(graph.size > 50, `only ${graph.size} files read`);
    assert.ok(graph.get('main/server.ts')?.includes('main/router.ts'), 'main/server.ts imports main/router.ts');
    assert.ok(graph.get('cli/commands/server.ts')?.includes('main/server.ts'), 'the dynamic import of the server is seen');
    for (const targets of graph.values()) for (const target of targets) assert.ok(graph.has(target), `${target} is a file of src/`);
  });

  it('imports only across the floors the map allows', () => {
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      const room = roomOf(file);
      for (const target of targets) {
        const to = roomOf(target);
        if (to === room || MAY_IMPORT[room]?.includes(to) || DOORS.has(`${file} → ${to}`)) continue;
        crossings.push(`${file} → ${target}`);
      }
    }
    assert.deepEqual(crossings, []);
  });

  it('keeps the handlers on top of the server: only main/server.ts imports main/handlers/', () => {
    const below: string[] = [];
    for (const [file, targets] of graph) {
      if (file === 'main/server.ts' || file.startsWith('main/handlers/')) continue;
      for (const target of targets) if (target.startsWith('main/handlers/')) below.push(`${file} → ${target}`);
    }
    assert.deepEqual(below, []);
    // The check reads what it checks: the server does import its handlers.
    assert.ok(graph.get('main/server.ts')?.some((target) => target.startsWith('main/handlers/')), 'main/server.ts imports handlers');
  });

  it('has no import circles', () => {
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    assert.deepEqual(circles, []);
  });
});
