/**
 * How a saved pane comes back, planned on its own (src/main/persistence/
 * restore-plan.ts; docs/persistence.md "Restore" and "Agents"): its directory
 * or $HOME, its command or the shell, the agent's resume command with
 * --resume-agents, the marker row that says which, and the layout that is
 * kept when some panes cannot start. No server; real directories and
 * programs in a temporary directory.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LayoutNode } from '../src/main/layout.js';
import { type RestoreContext, keptTabs, restorePlan } from '../src/main/persistence/restore-plan.js';
import type { SavedPane, SavedWorkspace } from '../src/main/persistence/session-file.js';
import { tempDir } from './helpers/server.js';

let root: string;
let home: string;
let project: string;
/** A PATH holding only the programs the test made: `tool`, `claude` and `pi`. */
let bin: string;

before(() => {
  root = tempDir('herdr-restore-plan-');
  home = join(root, 'home');
  project = join(root, 'project');
  bin = join(root, 'bin');
  for (const dir of [home, project, bin]) mkdirSync(dir);
  for (const name of ['tool', 'claude', 'pi']) {
    writeFileSync(join(bin, name), '#!/bin/sh\n');
    chmodSync(join(bin, name), 0o755);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

/** 2026-12-04 00:31:02 local time, as the marker prints it. */
const SAVED_AT = new Date(2026, 11, 4, 0, 31, 2).getTime();
const STAMP = '2026-12-04 00:31:02';

const context = (overrides: Partial<RestoreContext> = {}): RestoreContext => ({ shell: '/bin/sh', home, resumeAgents: false, savedAt: SAVED_AT, ...overrides });
const pane = (fields: Partial<SavedPane> = {}): SavedPane => ({ uid: 1, cols: 80, rows: 24, cwd: project, env: { PATH: bin }, ...fields });

describe('restore plan: directory and program', () => {
  it('a pane whose directory and command are there comes back as it was, under a plain marker', () => {
    const plan = restorePlan(pane({ command: ['tool', '--flag'] }), context());
    assert.deepEqual(plan, {
      argv: ['tool', '--flag'],
      cwd: project,
      marker: `── restored from ${STAMP} ──`,
      command: ['tool', '--flag'],
      previousAgentSession: undefined,
    });
  });

  it('a shell pane runs the server\'s shell again, and stays a shell pane', () => {
    const plan = restorePlan(pane(), context({ shell: '/bin/bash' }));
    assert.deepEqual([plan.argv, plan.command, plan.marker], [['/bin/bash'], undefined, `── restored from ${STAMP} ──`]);
  });

  it('a directory that is gone falls back to $HOME, and the marker says so', () => {
    const gone = join(root, 'deleted-project');
    const plan = restorePlan(pane({ cwd: gone }), context());
    assert.equal(plan.cwd, home);
    assert.equal(plan.marker, `── restored from ${STAMP}; ${gone} is gone: started in ${home} ──`);
    assert.equal(restorePlan(pane({ cwd: undefined }), context()).cwd, home, 'no directory saved: $HOME, without a note');
    assert.equal(restorePlan(pane({ cwd: undefined }), context()).marker, `── restored from ${STAMP} ──`);
  });

  it('a program that is gone falls back to the shell, which is what is saved next time', () => {
    const plan = restorePlan(pane({ command: ['uninstalled-tool', 'arg'] }), context());
    assert.deepEqual(plan.argv, ['/bin/sh']);
    assert.equal(plan.command, undefined);
    assert.equal(plan.marker, `── restored from ${STAMP}; uninstalled-tool is gone: started /bin/sh ──`);
    // Looked up on the pane's own PATH: a program only elsewhere is gone for it.
    assert.deepEqual(restorePlan(pane({ command: ['tool'], env: { PATH: home } }), context()).argv, ['/bin/sh']);
  });

  it('directory and program both gone: both notes, directory first', () => {
    const gone = join(root, 'deleted');
    const plan = restorePlan(pane({ cwd: gone, command: ['./run.sh'] }), context());
    assert.equal(plan.marker, `── restored from ${STAMP}; ${gone} is gone: started in ${home}; ./run.sh is gone: started /bin/sh ──`);
    assert.deepEqual([plan.argv, plan.cwd], [['/bin/sh'], home]);
  });
});

describe('restore plan: agents', () => {
  const claude = { agent: 'claude', agentSession: { id: 'sess-42' }, command: ['tool'] } satisfies Partial<SavedPane>;

  it('with --resume-agents, an agent that reported its session is resumed into it, and the marker says how', () => {
    const plan = restorePlan(pane(claude), context({ resumeAgents: true }));
    assert.deepEqual(plan.argv, ['claude', '--resume', 'sess-42']);
    assert.deepEqual(plan.command, ['claude', '--resume', 'sess-42'], 'saved again as the resume command');
    assert.equal(plan.marker, `── restored from ${STAMP}; resumed: claude --resume sess-42 ──`);
    assert.equal(plan.previousAgentSession, undefined, 'nothing left for a client to decide');
  });

  it('without it, the pane runs what it ran, and the session is offered to clients', () => {
    const plan = restorePlan(pane(claude), context({ resumeAgents: false }));
    assert.deepEqual(plan.argv, ['tool']);
    assert.equal(plan.marker, `── restored from ${STAMP} ──`);
    assert.deepEqual(plan.previousAgentSession, { agent: 'claude', id: 'sess-42' });
  });

  it('a resume command that cannot run, or cannot be built from what was reported, is not used', () => {
    // claude is not on this pane's PATH: its saved command (gone too) gives way to the shell.
    const noClaude = restorePlan(pane({ ...claude, env: { PATH: home } }), context({ resumeAgents: true }));
    assert.deepEqual(noClaude.argv, ['/bin/sh']);
    assert.equal(noClaude.marker, `── restored from ${STAMP}; tool is gone: started /bin/sh ──`);
    assert.deepEqual(noClaude.previousAgentSession, { agent: 'claude', id: 'sess-42' });
    // pi resumes by session path; an id alone is not enough.
    const piById = restorePlan(pane({ agent: 'pi', agentSession: { id: 'x' } }), context({ resumeAgents: true }));
    assert.deepEqual(piById.argv, ['/bin/sh']);
    assert.deepEqual(piById.previousAgentSession, { agent: 'pi', id: 'x' });
    const piByPath = restorePlan(pane({ agent: 'pi', agentSession: { path: '/tmp/s.jsonl' } }), context({ resumeAgents: true }));
    assert.deepEqual(piByPath.argv, ['pi', '--session', '/tmp/s.jsonl']);
  });

  it('an agent without a reported session, or a session without an agent, offers nothing', () => {
    assert.equal(restorePlan(pane({ agent: 'claude' }), context({ resumeAgents: true })).previousAgentSession, undefined);
    assert.equal(restorePlan(pane({ agent: 'claude', agentSession: { id: '' } }), context()).previousAgentSession, undefined);
    assert.equal(restorePlan(pane({ agentSession: { id: 'orphan' } }), context({ resumeAgents: true })).previousAgentSession, undefined);
  });
});

describe('restore plan: the layout kept', () => {
  // 1 | (2 over 3), focus on 2.
  const layout: LayoutNode = {
    kind: 'split',
    direction: 'right',
    ratio: 0.3,
    first: { kind: 'leaf', paneUid: 1 },
    second: { kind: 'split', direction: 'down', ratio: 0.5, first: { kind: 'leaf', paneUid: 2 }, second: { kind: 'leaf', paneUid: 3 } },
  };
  const workspace: SavedWorkspace = { uid: 1, focusedPaneUid: 2, layout, panes: [1, 2, 3].map((uid) => pane({ uid })) };

  /** The one tab of a file from before tabs. */
  const onlyTab = (kept: Set<number>) => {
    const result = keptTabs(workspace, kept);
    assert.equal(result.tabs.length, 1);
    return { layout: result.tabs[0]?.layout, focusedPaneUid: result.tabs[0]?.focusedPaneUid };
  };

  it('every pane started: the layout and focus as saved, split sizes included', () => {
    assert.deepEqual(onlyTab(new Set([1, 2, 3])), { layout, focusedPaneUid: 2 });
  });

  it('a pane that could not start leaves no hole: its sibling takes its place; focus stays where it can', () => {
    assert.deepEqual(onlyTab(new Set([1, 2])), {
      layout: { kind: 'split', direction: 'right', ratio: 0.3, first: { kind: 'leaf', paneUid: 1 }, second: { kind: 'leaf', paneUid: 2 } },
      focusedPaneUid: 2,
    });
  });

  it('the focused pane could not start: focus goes to the first pane left in layout order', () => {
    assert.deepEqual(onlyTab(new Set([3, 1])).focusedPaneUid, 1);
    assert.deepEqual(onlyTab(new Set([3])), { layout: { kind: 'leaf', paneUid: 3 }, focusedPaneUid: 3 });
  });

  it('tabs: one left empty goes, the active one stays active, each pane keeps its tab', () => {
    const tabbed: SavedWorkspace = {
      ...workspace,
      panes: [1, 2, 3, 4, 5].map((uid) => pane({ uid })),
      tabs: [
        { uid: 1, focusedPaneUid: 2, layout },
        { uid: 2, label: 'gone', focusedPaneUid: 4, layout: { kind: 'leaf', paneUid: 4 } },
        { uid: 3, label: 'logs', focusedPaneUid: 5, layout: { kind: 'leaf', paneUid: 5 } },
      ],
      activeTabUid: 3,
    };
    const kept = keptTabs(tabbed, new Set([1, 2, 3, 5]));
    assert.deepEqual(kept.tabs.map((tab) => [tab.uid, tab.label]), [[1, undefined], [3, 'logs']]);
    assert.equal(kept.activeTabUid, 3);
    assert.deepEqual([...kept.tabOfPane], [[1, 1], [2, 1], [3, 1], [5, 3]]);
    assert.equal(keptTabs(tabbed, new Set([1, 2, 3])).activeTabUid, 1, 'the active tab went: the first one left');
  });
});
