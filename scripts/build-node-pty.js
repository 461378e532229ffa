#!/usr/bin/env node
/**
 * postinstall: builds node-pty from source wherever npm put it (this
 * package's own node_modules, a parent project's, or a global prefix), with
 * one fix applied first. Plain JavaScript: it runs before the TypeScript is
 * built. No shell is involved.
 *
 * Why from source: the prebuilt linux binary lacks close_range, so PTY
 * masters would leak into pane processes (ARCHITECTURE.md, "PTYs").
 *
 * The fix: node-pty reports a child's exit through a thread-safe function
 * whose JavaScript call throws a C++ exception when it lands while the
 * worker thread that owns it is being torn down (a shard that crashed, ran
 * out of memory or was terminated: its PTY masters close, the shells exit on
 * the hangup, and their exits arrive mid-teardown). Nothing catches it, so
 * std::terminate aborts the whole server. Measured: a shard that exited or
 * hung aborted the process every time, one that threw whenever a shell was
 * among its panes; no fault has since (ARCHITECTURE.md, "Faults and hostile
 * input"). The fix catches that exception in the exit callback: with the
 * thread gone there is nobody left to tell.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const nodePty = dirname(require.resolve('node-pty/package.json'));
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');

const EXIT_CALLBACK = `      cb.Call({Napi::Number::New(env, exit_event->exit_code),
               Napi::Number::New(env, exit_event->signal_code)});
      delete exit_event;`;
const MARK = '/* herdr: exit during teardown */';
const GUARDED_EXIT_CALLBACK = `      try { ${MARK}
        cb.Call({Napi::Number::New(env, exit_event->exit_code),
                 Napi::Number::New(env, exit_event->signal_code)});
      } catch (const Napi::Error&) {
        // The owning environment is being torn down: nobody is left to tell.
      }
      delete exit_event;`;

function guardExitCallback() {
  const source = join(nodePty, 'src', 'unix', 'pty.cc');
  const text = readFileSync(source, 'utf8');
  if (text.includes(MARK)) return;
  if (!text.includes(EXIT_CALLBACK)) {
    throw new Error(`node-pty's ${source} is not the version this fix was written for; review scripts/build-node-pty.js`);
  }
  writeFileSync(source, text.replace(EXIT_CALLBACK, GUARDED_EXIT_CALLBACK));
}

if (process.platform !== 'win32') guardExitCallback();
execFileSync(process.execPath, [nodeGyp, 'rebuild', `--directory=${nodePty}`, '--silent'], { stdio: 'inherit' });
