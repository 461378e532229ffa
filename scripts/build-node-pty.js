#!/usr/bin/env node
/**
 * postinstall: builds node-pty from source wherever npm put it (this
 * package's own node_modules, a parent project's, or a global prefix). Its
 * prebuilt linux binary lacks close_range, so PTY masters would leak into
 * pane processes (ARCHITECTURE.md, "PTYs"). Plain JavaScript: it runs before
 * the TypeScript is built. No shell is involved.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const nodePty = dirname(require.resolve('node-pty/package.json'));
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
execFileSync(process.execPath, [nodeGyp, 'rebuild', `--directory=${nodePty}`, '--silent'], { stdio: 'inherit' });
