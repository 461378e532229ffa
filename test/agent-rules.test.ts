/** docs/protocol.md §10.1–10.2 rules from screen texts: every rule of every agent, and process identification. */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../harness/server.js';
import { AGENT_NAMES, type AgentName } from '../src/protocol/objects.js';
import { StateTracker, agentOfProcess, screenState } from '../src/workers/agents/detect.js';

const BOX = '─'.repeat(60);
/** Claude's screen: output, then its prompt box between two rules. */
const claude = (above: string, inBox = '❯ ', below = '  ? for shortcuts') => `${above}\n${BOX}\n${inBox}\n${BOX}\n${below}\n`;
/** codex's composer with its model and folder line: a configured session. */
const CODEX_IDLE = '› Ask Codex to do anything\n  GPT-5.5 default · /tmp/app\n  ← for agents · ? for shortcuts\n';
/** Pi's screen: its editor between two rules, its footer below. */
const pi = (above: string, editor = '') => `${above}\n${BOX}\n${editor}\n${BOX}\n/tmp/app\n0.0%/128k (auto)            scripted-model\n`;
/** gemini's and qwen's input boxes, with what each draws below. */
const gemini = (above: string, input = '>   Type your message or @path/to/file') => `${above}\n${BOX}\n ${input}\n workspace (/directory)     sandbox     /model\n`;
const qwen = (above: string, input = '>   Type your message or @path/to/file') => `${above}\n${BOX}\n${input}\n${BOX}\n  ⏸ Ask permissions (shift + tab to cycle)\n`;
/** opencode's input box: its agent and model row, its bottom edge, and the footer. */
const opencode = (input: string, footer = 'tab agents  ctrl+p commands') => `  ┃\n  ┃  ${input}\n  ┃\n  ┃  Build · Scripted M1\n  ╹▀▀▀▀▀▀▀▀▀▀▀▀\n   ${footer}\n`;

const CASES: Array<[AgentName, string, string, string]> = [
  ['pi', 'working', pi(' ⠦ Working...'), 'the spinner text'],
  ['pi', 'idle', pi('done'), 'its editor and footer'],
  ['pi', 'blocked', pi(' ⠦ Working...\n Allow bash: ls?\n → Yes\n   No\n ↑↓ navigate  enter select  escape/ctrl+c cancel'), 'a select dialog under the spinner'],
  ['pi', 'unknown', '$ pi\nfd not found. Offline mode enabled, skipping download.\n', 'still starting: nothing it draws yet'],
  ['claude', 'idle', claude('⌕ Search… foo'), 'history search'],
  ['claude', 'idle', claude('Showing detailed transcript · ctrl+r to toggle'), 'transcript view'],
  ['claude', 'blocked', 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No, and tell Claude what to do differently\n', 'permission prompt'],
  ['claude', 'blocked', 'Would you like to continue?\n  Yes  No\n', 'would you like … yes'],
  ['claude', 'blocked', 'Pick a model\n❯ 2. Opus 4.1\n  3. Haiku\n', 'selection prompt'],
  ['claude', 'blocked', claude('Edit file?', '', 'Enter to confirm · Esc to cancel'), 'esc to cancel'],
  ['claude', 'working', claude('✻ Thinking… (12s · esc to interrupt)'), 'esc to interrupt above the box'],
  ['claude', 'working', claude('Running tests (ctrl+c to interrupt)'), 'ctrl+c to interrupt above the box'],
  ['claude', 'working', claude('✶ Combobulating… (3s)'), 'spinner line'],
  ['claude', 'working', claude('* Puzzling…', '❯ ', '  ⏸ manual mode on · esc to interrupt · ← for agents'), 'an ASCII spinner frame, and the hint after the mode'],
  ['claude', 'idle', claude('* a bullet of the answer… and more of it'), 'a bullet with an ellipsis is not a spinner'],
  ['claude', 'idle', claude('done', '❯ type esc to interrupt here'), 'interrupt text inside the box does not count'],
  ['claude', 'unknown', '$ claude\n', 'still starting: no prompt box yet'],
  ['claude', 'unknown', '▝▜██████▀  Opus 5.5\n\n❯ Say hello\n● OK\n', 'a prompt in the transcript is not its prompt box'],
  ['claude', 'idle', claude('✻ …'), 'spinner without an alphanumeric'],
  ['claude', 'idle', claude('All set.'), 'quiet prompt'],
  ['codex', 'blocked', 'Run `ls`?\nPress Enter to confirm or Esc to cancel\n', 'confirm prompt'],
  ['codex', 'blocked', 'Question?\n| Enter to submit answer\n', 'question'],
  ['codex', 'blocked', 'Allow command? npm test\n', 'allow command'],
  ['codex', 'blocked', 'Apply patch? [y/N]\n', '[y/n]'],
  ['codex', 'blocked', '› 1. Yes (y)\n  2. No\n', 'yes (y)'],
  ['codex', 'blocked', 'Do you want to run this?\n  yes  no\n', 'confirmation rule'],
  ['codex', 'working', '• Working (4s • esc to interrupt)\n', 'esc to interrupt'],
  ['codex', 'working', '◦ Working (2s • esc to interrupt) · 1 background terminal running\n', 'a tool running'],
  ['codex', 'working', '• Reconnecting... 4/5 (2s • esc to interrupt)\n', 'reconnecting'],
  ['codex', 'idle', CODEX_IDLE, 'its composer with the model line'],
  ['codex', 'idle', `■ Conversation interrupted - use /feedback\nplease describe it\n${CODEX_IDLE}`, 'interrupted: the words "esc" and "interrupt" apart are not work'],
  ['codex', 'unknown', '>_ OpenAI Codex (v0.171.0)\n› Ask Codex to do anything\n  ? for shortcuts\n', 'its composer while the session still loads'],
  ['codex', 'blocked', 'Task is still running\n› 1. Cancel task\n  2. Run in background\n  3. Exit\n  enter select · esc back\n', 'a dialog it does not report'],
  ['gemini', 'blocked', 'Waiting for user confirmation...\n', 'waiting for confirmation'],
  ['gemini', 'blocked', '╭──\n│ Apply this change?\n╰──\n', 'apply'],
  ['gemini', 'blocked', '│ Allow execution of: rm?\n', 'allow execution'],
  ['gemini', 'blocked', '│ Do you want to proceed?\n', 'proceed'],
  ['gemini', 'working', gemini('⠏ Thinking (esc to cancel, 3s)'), 'esc to cancel'],
  ['gemini', 'working', '⠹ Executing Hooks: herdr-BeforeAgent, herdr-BeforeModel, herdr-AfterModel, herdr-BeforeToolSelect\n', 'hooks running'],
  ['gemini', 'idle', gemini('✦ done'), 'prompt'],
  ['gemini', 'unknown', '✦ This is a long s\n', 'half a frame: the transcript without its input box'],
  ['cursor', 'blocked', 'Run this command? (y) (enter)\n', '(y) (enter)'],
  ['cursor', 'blocked', 'Keep (n) / Undo\n', 'keep (n)'],
  ['cursor', 'blocked', 'Skip (esc or n)\n', 'skip'],
  ['cursor', 'blocked', 'Allow this? (y)\n', '(y) with allow'],
  ['cursor', 'working', 'Generating · ctrl+c to stop\n', 'ctrl+c to stop'],
  ['cursor', 'working', '⬢ Reading files\n', 'hexagon line with ing'],
  ['cursor', 'idle', '→ Add a follow-up\n', 'prompt'],
  ['cline', 'blocked', 'Let Cline use this tool?\n', 'tool permission'],
  ['cline', 'blocked', '[Act Mode] Proceed? Yes / No\n', 'act mode yes'],
  ['cline', 'idle', 'Cline is ready for your message\n', 'ready'],
  ['cline', 'working', 'Analyzing the codebase\n', 'anything else is working'],
  ['opencode', 'blocked', '△ Permission required\n  bash: rm\n', 'permission'],
  ['opencode', 'blocked', '  ┃  △ Always allow\n  ┃   Confirm   Cancel      ⇆ select  enter confirm\n', 'always allow'],
  ['opencode', 'working', opencode('', '⬝⬝⬝⬝⬝⬝⬝⬝  esc interrupt      tab agents'), 'interrupt'],
  ['opencode', 'idle', opencode('interrupt me'), 'prompt (a transcript saying "interrupt" is not work)'],
  ['opencode', 'unknown', '\n\n', 'its blank screen before the box'],
  ['copilot', 'blocked', '│ Do you want to run this command?\n', 'do you want'],
  ['copilot', 'blocked', 'Confirm with Enter\n', 'confirm with enter'],
  ['copilot', 'working', 'Thinking (Esc to cancel)\n', 'esc to cancel'],
  ['copilot', 'idle', '> \n', 'prompt'],
  ['kimi', 'blocked', 'Run shell command? Approve?\n', 'approve'],
  ['kimi', 'blocked', 'Overwrite (y/n)\n', '(y/n)'],
  ['kimi', 'working', 'Thinking...\n', 'thinking'],
  ['kimi', 'working', 'press ctrl-c to cancel\n', 'ctrl-c to cancel'],
  ['kimi', 'idle', '✨ \n', 'prompt'],
  ['droid', 'blocked', '╭ EXECUTE ╮\n│ npm test │\n> Yes, allow\n  No, cancel\n', 'EXECUTE box with options'],
  ['droid', 'blocked', 'EXECUTE npm test\n↑↓ to navigate\n', 'EXECUTE with navigation'],
  ['droid', 'blocked', 'Enter to select\n> No, cancel\n', 'select and options without EXECUTE'],
  ['droid', 'working', 'Running… (esc to stop)\n', 'esc to stop'],
  ['droid', 'idle', 'EXECUTE npm test finished\n', 'EXECUTE alone'],
  ['amp', 'working', '≋ Running tools  Esc to cancel\n', 'esc to cancel'],
  ['amp', 'idle', '> \n', 'prompt'],
  ['qwen', 'blocked', 'Do you want to proceed?\n● 1. Yes, allow once\n', 'confirmation'],
  ['qwen', 'blocked', '│ Enter to select, ↑↓ to navigate, Esc to go back │\n', 'dialog hint'],
  ['qwen', 'blocked', '  │ › OAuth │\n', 'selected choice in a dialog'],
  ['qwen', 'blocked', "   Allow execution of: 'rm'?\n\n   › 1. Yes, allow once\n     2. No, suggest changes (esc)\n\n  ⠏ Waiting for user confirmation...\n", 'permission menu without a box edge'],
  ['qwen', 'working', '⠇ Reticulating… (3s · esc to cancel)\n', 'esc to cancel'],
  ['qwen', 'working', '⠦ Initializing...\n', 'initializing'],
  ['qwen', 'idle', qwen('done', '> › not a dialog'), 'prompt'],
  ['qwen', 'unknown', '\n', 'its blank screen before the box'],
  ['letta', 'blocked', ' > Login to Letta Code\n   Exit\n\n Use ↑/↓ to navigate, Enter to select\n', 'menu hint'],
  ['letta', 'blocked', ' ✗ Error: offline\n Press Ctrl+C to exit\n', 'dead end'],
  ['letta', 'blocked', 'Do you want to run `ls`?\n❯ Yes\n', 'confirmation'],
  ['letta', 'working', 'Thinking… (esc to interrupt)\n', 'interrupt hint'],
  ['letta', 'idle', '> \n', 'prompt'],
  ['kilo', 'blocked', '△ Permission required\n', 'permission'],
  ['kilo', 'working', '⬝⬝⬝  esc interrupt\n', 'esc interrupt'],
  ['kilo', 'idle', '┃  Ask anything...\n', 'prompt'],
  ['mastracode', 'blocked', '↑↓ navigate · Enter select · Esc skip\n', 'menu hint'],
  ['mastracode', 'blocked', '          →   Continue\n              Skip\n', 'selected choice'],
  ['mastracode', 'blocked', 'Do you want to run this?\n  Yes  No\n', 'confirmation'],
  ['mastracode', 'working', 'Working (esc to interrupt)\n', 'interrupt hint'],
  ['mastracode', 'idle', '│ › see docs → here │\n', 'prompt'],
  ['qodercli', 'blocked', '↑/↓ navigate · Enter select · Esc back\n', 'dialog hint'],
  ['qodercli', 'blocked', '  ❯ 1. Trust folder\n', 'selected numbered choice'],
  ['qodercli', 'blocked', 'Do you want to edit a.ts?\n❯ Yes\n', 'confirmation'],
  ['qodercli', 'working', '✻ Thinking… (esc to interrupt)\n', 'interrupt hint'],
  ['qodercli', 'idle', '> \n', 'prompt'],
  ['omp', 'blocked', '↑/↓ select · enter confirm · esc skip · ctrl+c exit setup\n', 'setup step'],
  ['omp', 'working', '  ⎋ Working…\n', 'working'],
  ['omp', 'idle', ' π > ⬢ no-model\n', 'prompt'],
];

/** Known by their process only: no screen rules, so the screen never says a state. */
const PROCESS_ONLY: AgentName[] = ['devin', 'agy', 'kiro', 'grok', 'hermes', 'maki', 'muse', 'jcode'];

describe('agent state rules', () => {
  for (const [agent, state, screen, what] of CASES) {
    it(`${agent}: ${what} → ${state}`, () => assert.equal(screenState(agent, screen), state));
  }

  it('every agent has cases, or is known by its process only', () => {
    const agents = new Set<AgentName>([...CASES.map(([agent]) => agent), ...PROCESS_ONLY]);
    assert.deepEqual([...agents].sort(), [...AGENT_NAMES].sort());
  });

  for (const agent of PROCESS_ONLY) {
    it(`${agent}: process only → unknown whatever the screen`, () => {
      for (const screen of ['Working... (esc to interrupt)\n', 'Do you want to proceed?\n❯ 1. Yes\n', '> \n']) assert.equal(screenState(agent, screen), 'unknown');
    });
  }

  const view = (text: string, readsKeys: boolean | undefined = true) => ({ text, title: '', readsKeys: () => readsKeys });

  it("claude holds working for 1.2 s through a raw idle; other agents do not", () => {
    const tracker = new StateTracker();
    const working = claude('✻ Thinking… (esc to interrupt)');
    const idle = claude('Done.');
    assert.equal(tracker.update('claude', view(working), 1000).state, 'working');
    const held = tracker.update('claude', view(idle), 1500);
    assert.equal(held.state, 'working');
    assert.equal(held.recheckAt, 2200);
    assert.equal(tracker.update('claude', view(idle), 2200).state, 'idle');
    const codex = new StateTracker();
    assert.equal(codex.update('codex', view('esc to interrupt'), 0).state, 'working');
    assert.equal(codex.update('codex', view(CODEX_IDLE), 10).state, 'idle');
    assert.equal(codex.update(undefined, view('anything'), 20).state, 'unknown');
  });

  it('a screen no rule matched keeps the state before it for a frame\'s gap, then is unknown: never idle', () => {
    const tracker = new StateTracker();
    const half = '✦ This is a long s\n';
    assert.equal(tracker.update('gemini', view(half), 0).state, 'unknown', 'at the start: unknown, not idle');
    assert.equal(tracker.update('gemini', view(gemini('⠏ Thinking (esc to cancel, 3s)')), 100).state, 'working');
    const held = tracker.update('gemini', view(half), 110);
    assert.equal(held.state, 'working', 'half a frame keeps working');
    assert.match(held.held ?? '', /no rule matched/);
    assert.equal(tracker.update('gemini', view(half), 2000).state, 'unknown', 'after the hold: unknown');
    assert.equal(tracker.update('gemini', view(gemini('✦ done')), 2100).state, 'idle');
    assert.equal(tracker.update('gemini', view(half), 2200).state, 'idle', 'idle kept over a frame gap');
    assert.equal(tracker.update('gemini', view(half), 2400).state, 'unknown');
  });

  it('a drawn prompt is not idle while the terminal is still canonical (the CLI does not read keys yet)', () => {
    const tracker = new StateTracker();
    const stale = pi('the last run\'s answer');
    const early = tracker.update('pi', view(stale, false), 0);
    assert.equal(early.state, 'unknown');
    assert.match(early.held ?? '', /canonical/);
    assert.equal(tracker.update('pi', view(stale, true), 10).state, 'idle', 'raw: idle');
    assert.equal(new StateTracker().update('pi', view(stale, undefined), 0).state, 'idle', 'unknown line mode: the screen decides');
  });
});

describe('agent identification', () => {
  const cases: Array<[string, string[], AgentName | undefined]> = [
    ['pi', ['pi'], 'pi'],
    ['claude', ['claude'], 'claude'],
    ['Claude-Code', ['claude-code'], 'claude'],
    ['cursor-agent', ['cursor-agent'], 'cursor'],
    ['open-code', ['open-code'], 'opencode'],
    ['ghcs', ['ghcs'], 'copilot'],
    ['github-copilot', ['github-copilot'], 'copilot'],
    ['amp-local', ['amp-local'], 'amp'],
    ['droid', ['droid'], 'droid'],
    ['kimi', ['kimi'], 'kimi'],
    ['node', ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js'], 'codex'],
    ['node', ['node', '--no-warnings', '/opt/gemini/bin/gemini'], 'gemini'],
    // @github/copilot's bin is a node loader that spawns the native binary.
    ['node', ['node', '/usr/local/bin/copilot'], 'copilot'],
    ['bun', ['bun', 'run', '/x/opencode'], undefined],
    ['python3', ['python3', '/home/u/.local/bin/kimi'], 'kimi'],
    ['node', ['node', 'server.js'], undefined],
    ['bash', ['bash'], undefined],
    ['vim', ['vim', 'claude'], undefined],
    ['sh', ['/bin/sh', '/tmp/codex'], undefined],
    // Every label by its own name and aliases (herdr's list), names with a space being a program's title.
    ['qwen', ['qwen'], 'qwen'],
    ['qwen-code', ['qwen-code'], 'qwen'],
    ['qwen code', ['qwen code'], 'qwen'],
    ['devin-cli', ['devin-cli'], 'devin'],
    ['antigravity-cli', ['antigravity-cli'], 'agy'],
    ['agy', ['agy'], 'agy'],
    ['.cline', ['.cline'], 'cline'],
    ['omp', ['bun', '/opt/omp/node_modules/.bin/omp'], 'omp'],
    ['mastra-code', ['mastra-code'], 'mastracode'],
    ['opencode2', ['opencode2'], 'opencode'],
    ['kimi-code', ['kimi-code'], 'kimi'],
    ['kiro-cli', ['kiro-cli'], 'kiro'],
    ['grok-build', ['grok-build'], 'grok'],
    ['hermes-agent', ['hermes-agent'], 'hermes'],
    ['kilo-code', ['kilo-code'], 'kilo'],
    ['qoderclicn', ['qoderclicn'], 'qodercli'],
    ['qodercn', ['qodercn'], 'qodercli'],
    ['letta-code', ['letta-code'], 'letta'],
    ['maki', ['maki'], 'maki'],
    ['muse-cli', ['muse-cli'], 'muse'],
    // comm keeps 15 characters: the launcher's build number is cut, the pattern still holds.
    ['muse-bin-123456', ['/opt/muse/muse-bin-1234567890'], 'muse'],
    ['muse-bin-x', ['muse-bin-x'], undefined],
    ['j-code', ['j-code'], 'jcode'],
    // argv[0] whole, where comm was cut.
    ['antigravity-cl', ['/usr/local/bin/antigravity-cli'], 'agy'],
    // npm bin shims (`#!/usr/bin/env node`) run as `node <the shim's path>`, named as the command.
    ['node', ['node', '/tmp/x/node_modules/.bin/qwen'], 'qwen'],
    ['node', ['node', '/tmp/x/node_modules/.bin/letta'], 'letta'],
    ['node', ['node', '/tmp/x/node_modules/.bin/kilo'], 'kilo'],
    ['node', ['node', '/tmp/x/node_modules/.bin/mastracode'], 'mastracode'],
    ['node', ['node', '/tmp/x/node_modules/.bin/qodercli'], 'qodercli'],
    // The script by its own path: known by the package it lies in.
    ['node', ['node', '/usr/lib/node_modules/@qwen-code/qwen-code/cli.js'], 'qwen'],
    ['node', ['/usr/bin/node', '--expose-gc', '/usr/lib/node_modules/@qwen-code/qwen-code/cli-entry.js'], 'qwen'],
    ['node', ['node', '/x/node_modules/mastracode/dist/cli.js'], 'mastracode'],
    ['node', ['node', '/x/node_modules/@qoder-ai/qodercli/bundle/qoder-npm-dispatcher.cjs'], 'qodercli'],
    ['bun', ['bun', '/x/node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js'], 'omp'],
    ['node', ['node', '/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js'], 'pi'],
    // A dependency's script inside an agent's package is not the agent.
    ['node', ['node', '/x/node_modules/@qwen-code/qwen-code/node_modules/semver/bin/semver.js'], undefined],
    ['python3.13', ['python3.13', '/home/u/.local/bin/kimi'], 'kimi'],
  ];
  for (const [comm, argv, agent] of cases) {
    it(`${comm} ${argv.slice(1).join(' ')} → ${agent ?? 'no agent'}`, () => assert.equal(agentOfProcess(comm, argv), agent));
  }
});

describe('real agent screens (test/fixtures/screens)', () => {
  const dir = join(REPO_ROOT, 'test', 'fixtures', 'screens');
  const files = readdirSync(dir).filter((file) => file.endsWith('.txt'));
  it('has screens of every npm agent CLI', () => {
    for (const agent of ['gemini', 'codex', 'opencode', 'pi', 'claude', 'copilot', 'cline', 'droid', 'amp', 'qwen', 'letta', 'kilo', 'mastracode', 'qodercli', 'omp']) assert.ok(files.some((file) => file.startsWith(`${agent}-`)), agent);
  });
  for (const file of files) {
    const [, agent, state] = /^([a-z]+)-.*\.([a-z]+)\.txt$/.exec(file) ?? [];
    it(`${file} reads ${state}`, () => {
      assert.ok(AGENT_NAMES.includes(agent as AgentName), `${file} names a known agent`);
      assert.equal(screenState(agent as AgentName, readFileSync(join(dir, file), 'utf8')), state);
    });
  }
});
