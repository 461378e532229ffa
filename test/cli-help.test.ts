/** Every command's `--help` shows its flags and one example, and every example names a real command. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EXAMPLES } from '../src/cli/examples.js';
import { HERDR_BIN } from './helpers/server.js';

const run = promisify(execFile);
const help = async (...path: string[]) => (await run(process.execPath, [HERDR_BIN, ...path, '--help'])).stdout;

/** The names listed under "Commands:" in a help text (without commander's own `help`). */
function commandsOf(text: string): string[] {
  const section = text.split('\nCommands:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
}

describe('the CLI help', () => {
  it('has an example for every command, under its flags', async () => {
    const paths: string[][] = [];
    for (const group of commandsOf(await help())) {
      const sub = commandsOf(await help(group));
      if (sub.length === 0 || group === 'server') paths.push([group]);
      for (const name of sub) {
        // A group within a group (`plugin action list`): its commands are the paths.
        const nested = group === 'server' ? [] : commandsOf(await help(group, name));
        if (nested.length === 0) paths.push([group, name]);
        for (const leaf of nested) paths.push([group, name, leaf]);
      }
    }
    assert.ok(paths.length >= 18, `commands found: ${paths.map((p) => p.join(' ')).join(', ')}`);
    assert.deepEqual(paths.map((p) => p.join(' ')).sort(), Object.keys(EXAMPLES).sort());
    for (const path of paths) {
      const text = await help(...path);
      assert.match(text, /\nOptions:\n/, `${path.join(' ')} lists its flags`);
      assert.ok(text.includes(`Example:\n  $ ${EXAMPLES[path.join(' ')]}`), `${path.join(' ')} shows its example`);
    }
  });
});
