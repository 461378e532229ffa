/**
 * Hostile request lines for the client fuzz test, from a seeded generator so
 * a failure can be replayed: random bytes, truncated and deeply nested JSON,
 * every field of every method set to wrong types and extreme values, huge
 * strings, invalid UTF-8, unknown methods and bad envelopes, and patterns
 * that would explode a backtracking regex engine.
 */
import { join } from 'node:path';
import type { MethodName } from '../../src/protocol/methods.js';

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same lines. */
export class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

export interface FuzzLine {
  /** The bytes of the line, without its newline. */
  bytes: Buffer;
  /** The method it names, when it is a request with a string method. */
  method?: string;
  /** The request id, when it has a string one. */
  id?: string;
  /** May go on a keep-alive connection (not a subscription, not an over-long line). */
  keepAliveOk: boolean;
  /** Longer than the server's line limit: answered with an error, then the connection closes. */
  overLong: boolean;
  what: string;
}

/** Text that is spliced into a line after JSON.stringify, for what JSON.stringify cannot write. */
const RAW = {
  '"@@inf@@"': '1e400',
  '"@@u64@@"': '18446744073709551616',
  '"@@ns@@"': '1800000000000000123',
  '"@@negzero@@"': '-0',
  '"@@exp@@"': '1E+2',
};

function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Values no field expects, or expects only at its edges. */
function hostileValues(random: Random): unknown[] {
  return [
    null, true, false, 0, -1, 1, 1.5, -0.5, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 1001, 65536,
    '@@inf@@', '@@u64@@', '@@ns@@', '@@negzero@@', '@@exp@@',
    '', ' ', '\u0000', '\ud800', '\udfff\ud800', '\u202e', '💥'.repeat(500), 'x'.repeat(random.chance(0.1) ? 400_000 : 5000),
    '../../../../etc/passwd', '/nonexistent', '$(touch /tmp/herdr-fuzz-pwned)', '`touch /tmp/herdr-fuzz-pwned`', '; rm -rf ~',
    '1-1', 'w1:p1', 'w1', '1', '0', '-1', '1-0', '999999-1', 'w99:p99', '1-1-1', 'w1:p1:p1', '0x1', '１',
    '(a+)+$', '((((', '\\', '(?P<n>x)', 'a{1000}{1000}', '[[:alpha:]', '\\p{Greek}+',
    [], [null], [1, 2], ['Enter', 'C-c', 'Hyper'], ['/bin/true'], [''], ['\u0000'],
    {}, { a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}'), { constructor: { prototype: { x: 1 } } },
    { 'HERDR_PANE_ID=w9:p9': 'x' }, { '': 'x' }, { 'A\u0000B': 'x' }, { HERDR_SOCKET_PATH: '/tmp/elsewhere' }, { PATH: '' },
    { type: 'regex', value: '(a*)*b' }, { type: 'substring' }, { type: 'glob', value: '*' },
  ];
}

const KEYS = ['Enter', 'C-c', 'Up', 'F12', 'Hyper', '', 'C-', 'M-x', 'S-Tab', 'x', 'Escape'];
const REGEX_BOMBS = ['(a+)+$', '(a|aa)+$', '(x+x+)+y', '(.*a){20}', '^(([a-z])+.)+[A-Z]([a-z])+$', '(a*)*b', 'a'.repeat(5000) + '*', '(' .repeat(3000) + 'a' + ')'.repeat(3000), '\\1', '(?=a)', '[' + 'a-z'.repeat(2000) + ']'];

/**
 * Params a method accepts, with ids that exist in the fuzz server's
 * workspaces (which the fuzz itself may close) and commands that end at once,
 * so valid requests do not pile up panes.
 */
function baseParams(method: MethodName, random: Random, dir: string): Record<string, unknown> {
  const pane = random.pick(['1-1', '2-1', 'w1:p1', 'w2:p2', '1-2']);
  const workspace = random.pick(['1', '2', 'w1', 'w2']);
  const spawn = { cwd: dir, command: ['/bin/true'], label: 'fuzz', cols: 40, rows: 10, env: { FUZZ: '1' } };
  switch (method) {
    case 'ping':
    case 'workspace.list':
    case 'server.stats':
    case 'server.stop':
      return {};
    case 'workspace.get':
    case 'workspace.focus':
    case 'workspace.close':
      return { workspace_id: workspace };
    case 'workspace.rename':
      return { workspace_id: workspace, label: 'renamed' };
    case 'workspace.create':
      return { ...spawn, focus: random.chance(0.5) };
    case 'pane.list':
      return { workspace_id: workspace };
    case 'pane.get':
    case 'pane.close':
      return { pane_id: pane };
    case 'pane.read':
      return { pane_id: pane, source: random.pick(['visible', 'recent']), lines: 20, strip_ansi: random.chance(0.5) };
    case 'pane.send_text':
      return { pane_id: pane, text: 'typed by the fuzz' };
    case 'pane.send_keys':
      return { pane_id: pane, keys: [random.pick(KEYS)] };
    case 'pane.send_input':
      return { pane_id: pane, text: 'fuzz', keys: ['Enter'] };
    case 'pane.split':
      return { target_pane_id: pane, direction: random.pick(['right', 'down']), ...spawn };
    case 'pane.resize':
      return { pane_id: pane, cols: 1 + random.int(1000), rows: 1 + random.int(1000) };
    case 'pane.wait_for_output':
      return { pane_id: pane, source: 'recent', lines: 10, match: { type: 'regex', value: random.pick(REGEX_BOMBS) }, timeout_ms: 20 };
    case 'events.subscribe':
      return { subscriptions: [{ type: 'pane.output_matched', pane_id: pane, source: 'visible', match: { type: 'regex', value: random.pick(REGEX_BOMBS) } }, { type: 'workspace.created' }] };
    case 'pane.stream':
      return { pane_id: pane };
    case 'events.wait':
      return { match_event: { event: 'pane_exited', pane_id: pane }, timeout_ms: 20 };
    case 'pane.report_agent':
      return { pane_id: pane, source: 'fuzz', agent: 'fuzzbot', state: 'working', message: 'm', seq: '@@ns@@' };
    case 'pane.release_agent':
      return { pane_id: pane, source: 'fuzz', agent: 'fuzzbot' };
    case 'pane.clear_agent_authority':
      return { pane_id: pane, source: 'fuzz' };
    case 'pane.report_agent_session':
      return { pane_id: pane, source: 'fuzz', agent: 'fuzzbot', agent_session_id: 's', agent_session_path: '/tmp/s' };
    case 'agent.list':
    case 'session.snapshot':
      return {};
    case 'agent.get':
    case 'agent.focus':
    case 'agent.explain':
      return { target: pane };
    case 'agent.read':
      return { target: pane, source: random.pick(['visible', 'recent']), lines: 20, format: random.pick(['text', 'ansi']) };
    case 'agent.rename':
      return { target: pane, name: random.pick(['fuzzy', null, 'Bad Name']) };
    case 'agent.start':
      // Programs that end at once: a start answers agent_start_failed and leaves nothing.
      return random.chance(0.5)
        ? { name: 'fuzzer', command: ['/bin/true'], cwd: dir, timeout_ms: 50 }
        : { kind: random.pick(['pi', 'nethack']), pane_id: pane, timeout_ms: 50, wait: random.chance(0.5) };
    case 'agent.prompt':
      return { target: pane, text: 'fuzz', wait: { until: ['idle'], timeout_ms: 20 }, stall_ms: 100 };
    case 'agent.send_keys':
      return { target: pane, keys: [random.pick(KEYS)] };
    case 'agent.turn.get':
    case 'agent.queue.cancel':
      return { turn_id: random.pick(['t1', 't999', '', 'x']) };
    case 'agent.queue.list':
      return { target: pane };
    case 'agent.wait':
      return { target: pane, until: ['blocked'], timeout_ms: 20 };
    case 'approvals.list':
      return random.chance(0.5) ? { workspace_id: workspace } : { agent: random.pick(['claude', 'codex', '']) };
    case 'approvals.answer_matching':
      return random.chance(0.5) ? { option: random.pick(['1', '2']), agent: 'claude' } : { label: random.pick(['yes', '']), question: 'proceed' };
    case 'approvals.answer':
      return { pane_id: pane, option: random.pick(['1', '2', '9', '']), question_hash: random.pick(['0123456789abcdef', '']) };
    // Always into the fuzz's own folder, never the home of whoever runs the tests.
    case 'integration.install':
    case 'integration.uninstall':
      return { target: random.pick(['claude', 'codex', 'opencode', 'pi', 'qwen', 'gemini', 'grok', 'nope']), home: join(dir, 'home') };
    case 'integration.list':
      return { home: join(dir, 'home') };
    case 'rules.add':
      // Nothing a rule could start: a schedule once a year, into an agent nobody has.
      return random.chance(0.5)
        ? { trigger: { type: 'schedule', cron: random.pick(['0 0 1 1 *', '61 * * * *', '* *']) }, action: { type: 'queue', agent: 'nobody', text: 'fuzz' } }
        : { trigger: { type: 'command_finished', exit: 'failed', pane_id: pane }, action: { type: 'prompt', agent: 'nobody', text: '{{exit_code}}' }, limit: { max: 1, per_s: 60 } };
    case 'rules.list':
      return {};
    case 'rules.remove':
      return { rule_id: random.pick(['r1', 'r2', 'r999', '']) };
    case 'pane.process_info':
      return random.chance(0.5) ? { pane_id: pane } : {};
    case 'pane.rename':
      return { pane_id: pane, label: random.pick(['fuzz', '  ', null]) };
    case 'pane.report_metadata':
      return { pane_id: pane, source: 'fuzz', tokens: { t: 'v', gone: null }, title: 'fuzz', state_labels: { done: 'ok' }, ttl_ms: 1 + random.int(1000), seq: '@@ns@@' };
    case 'workspace.report_metadata':
      return { workspace_id: workspace, source: 'fuzz', tokens: { t: 'v' }, ttl_ms: 1 + random.int(1000) };
    case 'layout.export':
      return { workspace_id: workspace };
    case 'layout.apply': {
      const leaf = { type: 'pane', cwd: dir, command: ['/bin/true'], label: 'fuzz', env: { FUZZ: '1' } };
      return { root: { type: 'split', direction: random.pick(['right', 'down']), ratio: 0.5, first: leaf, second: { ...leaf } }, label: 'fuzz' };
    }
    // The fuzz directory is no repository: worktree requests are refused, never make a worktree or a branch.
    case 'worktree.list':
      return { cwd: dir };
    case 'worktree.create':
      return { cwd: dir, branch: 'fuzz', base: 'HEAD', label: 'fuzz', focus: false };
    case 'worktree.open':
      return { cwd: dir, branch: 'fuzz' };
    case 'worktree.remove':
      return { workspace_id: workspace, force: random.chance(0.5) };
    case 'tab.create':
      return { ...spawn, workspace_id: workspace, focus: random.chance(0.5) };
    case 'tab.list':
      return random.chance(0.5) ? {} : { workspace_id: workspace };
    case 'tab.get':
    case 'tab.focus':
    case 'tab.close':
      return { tab_id: random.pick(['w1:t1', 'w2:t1', 'w1:t2', 'w2:t2']) };
    case 'tab.rename':
      return { tab_id: random.pick(['w1:t1', 'w1:t2']), label: 'renamed' };
    case 'pane.layout':
    case 'pane.edges':
    case 'pane.graphics.info':
    case 'pane.graphics.clear':
      return { pane_id: pane };
    case 'pane.neighbor':
    case 'pane.focus_direction':
      return { pane_id: pane, direction: random.pick(['left', 'right', 'up', 'down', 'sideways']) };
    case 'pane.focus':
    case 'plugin.pane.focus':
    case 'plugin.pane.close':
      return { pane_id: pane };
    case 'pane.swap':
      return { source_pane_id: pane, target_pane_id: random.pick(['1-1', 'w1:p2', '2-1']) };
    case 'pane.zoom':
      return { pane_id: pane, mode: random.pick(['toggle', 'on', 'off']) };
    case 'pane.move':
      return { pane_id: pane, destination: { type: 'tab', tab_id: random.pick(['w1:t1', 'w2:t1']), split: random.pick(['right', 'down']) } };
    case 'pane.scroll':
      return random.chance(0.5) ? { pane_id: pane, direction: random.pick(['up', 'down']), lines: random.int(50) } : { pane_id: pane, to: random.pick(['top', 'bottom']) };
    case 'tab.move':
      return { tab_id: random.pick(['w1:t1', 'w2:t1', 'w1:t2']), insert_index: random.int(4) };
    case 'workspace.move':
      return { workspace_id: workspace, insert_index: random.int(4) };
    case 'workspace.move_block':
      return { workspace_ids: [workspace], before_workspace_id: random.pick(['1', 'w2']) };
    case 'layout.set_split_ratio':
      return { pane_id: pane, path: [], ratio: random.pick([0.05, 0.3, 0.5, 0.95]) };
    case 'plugin.link':
      // The fuzz's directory holds no manifest: a refusal, never a plugin.
      return { path: dir };
    case 'plugin.list':
    case 'plugin.action.list':
    case 'plugin.log.list':
    case 'notification.list':
    case 'pane.current':
    case 'client.window_title.clear':
    case 'popup.close':
    case 'agent.view.clear':
    case 'server.live_handoff':
    case 'server.agent_manifests':
    case 'server.reload_agent_manifests':
    case 'server.reload_config':
      return {};
    case 'plugin.unlink':
    case 'plugin.enable':
    case 'plugin.disable':
      return { plugin_id: 'fuzz' };
    case 'plugin.action.invoke':
      return { action_id: 'fuzz.nothing' };
    case 'plugin.pane.open':
      return { plugin_id: 'fuzz', entrypoint: 'nothing' };
    case 'notification.show':
      return { title: 'fuzz', body: 'b' };
    case 'pane.input.set':
      return { pane_id: pane, right_click: random.pick(['menu', 'paste', 'pane', 'nothing']) };
    case 'pane.selection.read':
      return { pane_id: pane, start: { row: random.int(5) - 2, col: 0 }, end: { row: random.int(10), col: random.int(80) } };
    case 'client.window_title.set':
      return { title: 'fuzz' };
    case 'agent.view.set':
      return { source: 'fuzz' };
    case 'pane.graphics.set':
      return { pane_id: pane, format: 'png', image_width: 1, image_height: 1 };
  }
}

/** Methods whose connection stays open after the ack, for the server to write on (never kept alive). */
export function isStreamingMethod(method: unknown): boolean {
  return method === 'events.subscribe' || method === 'pane.stream';
}

/** Methods that wait: a mutated timeout must still end soon, or the line would never be answered. */
const TIMEOUT_FIELDS = new Set(['pane.wait_for_output', 'events.wait']);

function envelopeLine(id: string, method: unknown, params: unknown, extra: Record<string, unknown> = {}): string {
  let text = JSON.stringify({ id, method, params, ...extra });
  for (const [placeholder, raw] of Object.entries(RAW)) text = text.split(placeholder).join(raw);
  return text;
}

export interface FuzzOptions {
  seed: number;
  count: number;
  /** A directory panes may start in. */
  dir: string;
  /** Every method of the protocol except `server.stop`, which would end the run. */
  methods: readonly MethodName[];
  maxLineBytes: number;
}

export function fuzzLines(options: FuzzOptions): FuzzLine[] {
  const random = new Random(options.seed);
  const lines: FuzzLine[] = [];
  const methods = options.methods;
  let serial = 0;
  const nextId = () => `fz${serial++}`;
  const add = (text: string | Buffer, what: string, extra: Partial<FuzzLine> = {}) => {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const overLong = bytes.length > options.maxLineBytes;
    lines.push({ bytes, what, keepAliveOk: !overLong && !isStreamingMethod(extra.method), overLong, ...extra });
  };

  while (lines.length < options.count) {
    const kind = random.int(100);
    const id = nextId();
    if (kind < 14) {
      // Random bytes, invalid UTF-8 included; never a newline (that would be two lines).
      const bytes = Buffer.alloc(random.int(random.chance(0.05) ? 100_000 : 600));
      for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(256);
      add(Buffer.from(bytes.map((b) => (b === 0x0a ? 0x0b : b))), 'random bytes');
    } else if (kind < 24) {
      // A valid request cut short.
      const method = random.pick(methods);
      const full = envelopeLine(id, method, baseParams(method, random, options.dir));
      add(full.slice(0, random.int(full.length)), `truncated ${method}`);
    } else if (kind < 27) {
      // Deep nesting, in params and as the whole line, some with a long digit run (the lossless parser's path).
      const depth = random.pick([100, 1000, 10_000, 100_000]);
      const nest = random.chance(0.5) ? deepArray(depth) : deepObject(depth);
      const digits = random.chance(0.5) ? ',"seq":1800000000000000123' : '';
      const method = random.pick(methods);
      const text = random.chance(0.7) ? `{"id":"${id}","method":"${method}","params":{"x":${nest}${digits}}}` : nest;
      add(text, `nested ${depth}`, { id, method });
    } else if (kind < 32) {
      // Envelopes that are wrong as envelopes.
      const method = random.pick(methods);
      const params = baseParams(method, random, options.dir);
      const variants: string[] = [
        JSON.stringify({ id: 7, method, params }),
        JSON.stringify({ id, method: 7, params }),
        JSON.stringify({ id, method }),
        JSON.stringify({ id, method, params: [params] }),
        JSON.stringify({ id, method, params: null }),
        JSON.stringify({ id, method, params: 'x' }),
        JSON.stringify([{ id, method, params }]),
        JSON.stringify('just a string'),
        '42',
        'null',
        JSON.stringify({ id, method, params, keep_alive: 'yes' }),
        `{"id":"${id}","id":"${id}x","method":"${method}","params":{}}`,
        `{"id":"${id}","method":"${method}","params":{},}`,
        '\ufeff' + JSON.stringify({ id, method, params }),
      ];
      add(random.pick(variants), 'bad envelope', { id, method });
    } else if (kind < 36) {
      // Unknown methods, prototype names among them.
      const method = random.pick(['nope', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'pane', 'pane.', 'PANE.LIST', 'pane.list ', 'debug.shard_fault', 'x'.repeat(10_000)]);
      add(envelopeLine(id, method, {}), `unknown method ${method.slice(0, 20)}`, { id, method });
    } else if (kind < 40) {
      // Regex bombs where patterns are taken.
      const method = random.pick(['pane.wait_for_output', 'events.subscribe'] as const);
      add(envelopeLine(id, method, baseParams(method, random, options.dir)), `regex ${method}`, { id, method });
    } else if (kind < 50) {
      // Valid requests.
      const method = random.pick(methods);
      add(envelopeLine(id, method, baseParams(method, random, options.dir)), `valid ${method}`, { id, method });
    } else {
      // One field of one method set to something hostile, removed, or joined by an unknown one.
      const method = random.pick(methods);
      const params = baseParams(method, random, options.dir);
      const fields = Object.keys(params);
      const roll = random.int(10);
      if (roll === 0 || fields.length === 0) params[`unknown_${random.int(5)}`] = random.pick(hostileValues(random));
      else {
        const field = random.pick(fields);
        if (roll === 1) delete params[field];
        else {
          let value = random.pick(hostileValues(random));
          // A wait's timeout must stay short when the mutation happens to be a valid one.
          if (field === 'timeout_ms' && TIMEOUT_FIELDS.has(method) && typeof value === 'number' && Number.isSafeInteger(value) && value > 500) value = 500;
          if (field === 'timeout_ms' && TIMEOUT_FIELDS.has(method) && value === null) value = 0;
          params[field] = value;
        }
      }
      if (TIMEOUT_FIELDS.has(method) && !('timeout_ms' in params)) params.timeout_ms = 10;
      add(envelopeLine(id, method, params), `mutated ${method}`, { id, method });
    }
  }
  // A few lines longer than the limit.
  for (let i = 0; i < 5; i++) {
    const id = nextId();
    add(envelopeLine(id, 'pane.send_text', { pane_id: '1-1', text: 'y'.repeat(options.maxLineBytes + 1000) }), 'over-long line', { id, method: 'pane.send_text' });
  }
  return lines;
}
