#!/usr/bin/env node
// Builds herdr web's page (docs/web.md) into dist/web: src/web/page bundled by esbuild
// with xterm.js and its CSS, so the page loads nothing from anywhere but herdr web itself.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'src/web/page');
const out = join(root, 'dist/web');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(page, 'main.ts') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  legalComments: 'linked',
  logLevel: 'warning',
});
copyFileSync(join(page, 'index.html'), join(out, 'index.html'));
