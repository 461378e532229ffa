/**
 * The client library stands on its own: src/client imports src/protocol and
 * packages, never the CLI, the server's main thread or its shards (so a
 * program that imports 'herdr' loads none of them).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from './helpers/server.js';

const CLIENT = join(REPO_ROOT, 'src', 'client');

describe('src/client', () => {
  it('imports only itself, src/protocol and packages', () => {
    const files = readdirSync(CLIENT).filter((name) => name.endsWith('.ts'));
    assert.ok(files.includes('client.ts'));
    for (const file of files) {
      const source = readFileSync(join(CLIENT, file), 'utf8');
      for (const [, specifier = ''] of source.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        if (!specifier.startsWith('.')) continue;
        assert.match(specifier, /^\.\/[^/]+\.js$|^\.\.\/protocol\/[^/]+\.js$/, `${file} imports ${specifier}`);
      }
    }
  });
});
