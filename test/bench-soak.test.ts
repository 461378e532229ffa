/** The soak in brief: the fleet and its churning clients run with no error and it says so per minute. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../harness/server.js';

describe('soak, in brief', () => {
  it('runs the fleet and its churning clients for 20 s with no error, and says so per minute', () => {
    const soak = join(REPO_ROOT, 'dist', 'bench', 'soak.js');
    const run = spawnSync(process.execPath, [soak, '--minutes', '0.35', '--panes', '24'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, `soak exited ${run.status}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
    assert.match(run.stdout, /^minute  1  errors   0  probes +\d+ +p50 +[\d.]+ ms +p99 +[\d.]+ ms/m);
    assert.match(run.stdout, /soak passed: 1 minute\(s\), no errors/);
  });
});
