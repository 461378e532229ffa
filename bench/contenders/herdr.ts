/**
 * Our server as a bench contender: one we start (default shards or
 * `--workers 1`) in the clean environment, or one already running
 * (`--socket`), which the bench then drives as a load generator.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HerdrClient, HerdrConnection, type PaneOutputStream, call } from '../../src/client/client.js';
import { eventually } from '../../harness/poll.js';
import { HERDR_BIN, type LocalServer, startServer } from '../../harness/server.js';
import { type BenchEnvironment, PROMPT, SHELL } from '../environment.js';
import { cpuSeconds, pool } from '../measure.js';
import { type CliKind, type HostName, type OutputWatch, type PaneHost, type PerPane, type QueryKind, type ViewedOutput, perPane } from './host.js';

/** Whole-line regex for a literal (wait_for_output regexes are RE2, line by line). */
export function exactLine(line: string): string {
  return `^${line.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}$`;
}

const runFile = promisify(execFile);
/** Requests a burst keeps in flight: a script that fires them all and awaits the lot. */
const BURST_IN_FLIGHT = 64;

/** A keep-alive connection that has sent its first request (the server drops connections silent for 10 s). */
export async function keptAlive(socketPath: string): Promise<HerdrConnection> {
  const connection = await HerdrConnection.open(socketPath);
  await connection.call('ping', {});
  return connection;
}

/** Nanosecond-clock seqs, past 2^53 like real hooks' and increasing across the run. */
let lastSeq = 1_800_000_000_000_000_000n;

/** One hook report the way integrations send it: a connection of its own, one line, one answer. */
export async function reportAgent(socketPath: string, pane: string, state: 'working' | 'idle'): Promise<void> {
  const params = { pane_id: pane, source: 'bench:hook', agent: 'benchbot', state, seq: ++lastSeq };
  await call('pane.report_agent', params, { socketPath, id: 'bench:hook' });
}

/** Reads a stream until `mark` is in its output or in a resync's fresh screen: the output bytes read and the resyncs on the way. Throws when the stream ends first. */
async function untilMark(stream: PaneOutputStream, mark: string): Promise<{ bytes: number; resyncs: number }> {
  let bytes = 0;
  let resyncs = 0;
  let tail = '';
  for await (const line of stream) {
    if (line.event === 'pane.resync') {
      resyncs++;
      // The mark may have been printed in what the fresh screen replaces.
      if (line.data.snapshot.includes(mark)) return { bytes, resyncs };
      tail = '';
      continue;
    }
    if (line.event !== 'pane.output') continue;
    const chunk = Buffer.from(line.data.bytes, 'base64');
    bytes += chunk.length;
    const text = tail + chunk.toString('latin1');
    if (text.includes(mark)) return { bytes, resyncs };
    tail = text.slice(-mark.length);
  }
  throw new Error(`the stream ended before ${mark}`);
}

export class HerdrHost implements PaneHost {
  /** Workspace of each pane we created (one pane per workspace, spread over the shards). */
  private readonly workspaceOf = new Map<string, string>();
  /** For subscriptions (each on a connection of its own). */
  readonly client: HerdrClient;

  private constructor(
    readonly name: HostName,
    readonly label: string,
    readonly socketPath: string,
    readonly connection: HerdrConnection,
    private readonly environment: BenchEnvironment,
    private readonly server: LocalServer | undefined,
  ) {
    this.client = new HerdrClient({ socketPath });
  }

  /** Starts a server of our own; `workers` 1 is the single-shard contender. */
  static async start(environment: BenchEnvironment, workers?: number, nodeArgs: string[] = [], serverArgs: string[] = []): Promise<HerdrHost> {
    const server = await startServer({ baseEnv: environment.env, shell: SHELL, nodeArgs, serverArgs, ownSession: true, ...(workers ? { workers } : {}) });
    const connection = await keptAlive(server.socketPath);
    const name: HostName = workers === 1 ? 'herdr-1' : 'herdr';
    return new HerdrHost(name, workers === 1 ? 'herdr --workers 1' : 'herdr', server.socketPath, connection, environment, server);
  }

  /** Drives a server that is already running. */
  static async attach(environment: BenchEnvironment, socketPath: string): Promise<HerdrHost> {
    const connection = await keptAlive(socketPath);
    return new HerdrHost('herdr', `herdr at ${socketPath}`, socketPath, connection, environment, undefined);
  }

  get pid(): number | undefined {
    return this.server?.pid;
  }

  /** Where a server of our own keeps its session (harness default: `state` in its directory). */
  get stateDir(): string | undefined {
    return this.server ? join(this.server.dir, 'state') : undefined;
  }

  async createPanes(count: number, command?: PerPane): Promise<string[]> {
    const panes = await this.createWorkspaces(count, command, 8);
    if (!command) await this.untilPrompt(panes);
    return panes;
  }

  async createBurst(count: number): Promise<{ panes: string[]; seconds: number }> {
    const start = performance.now();
    const panes = await this.createWorkspaces(count, undefined, BURST_IN_FLIGHT);
    const seconds = (performance.now() - start) / 1000;
    await this.untilPrompt(panes);
    return { panes, seconds };
  }

  /** `count` workspaces of one pane each, `inFlight` requests at a time; their panes' stable ids, in the order of the commands. */
  private async createWorkspaces(count: number, command: PerPane | undefined, inFlight: number): Promise<string[]> {
    const panes: string[] = [];
    const commandOf = command === undefined ? undefined : perPane(command);
    await pool(Array.from({ length: count }), inFlight, async (_, index) => {
      const { workspace } = await this.connection.call('workspace.create', {
        cwd: this.environment.dir,
        focus: false,
        command: commandOf ? [SHELL, '-c', commandOf(index)] : [SHELL],
        env: { PS1: PROMPT, HOME: this.environment.home },
      });
      const { pane: info } = await this.connection.call('pane.get', { pane_id: `${workspace.workspace_id}-1` });
      this.workspaceOf.set(info.stable_id, workspace.stable_id);
      panes[index] = info.stable_id;
    });
    return panes;
  }

  private async untilPrompt(panes: readonly string[]): Promise<void> {
    await pool(panes, 16, (pane) =>
      eventually(async () => {
        const { read } = await this.connection.call('pane.read', { pane_id: pane, source: 'recent', lines: 2 });
        return read.text.includes(PROMPT.trim());
      }, `a prompt in ${pane}`, 60_000).then(() => undefined),
    );
  }

  async typeLine(panes: readonly string[], line: PerPane): Promise<void> {
    const lineOf = perPane(line);
    await Promise.all(panes.map((pane, i) => this.connection.call('pane.send_input', { pane_id: pane, text: lineOf(i) })));
  }

  async untilLine(panes: readonly string[], line: string, timeoutMs: number): Promise<void> {
    const match = { type: 'regex' as const, value: exactLine(line) };
    await Promise.all(
      panes.map((pane) =>
        this.connection.call('pane.wait_for_output', { pane_id: pane, source: 'recent', lines: 10, match, timeout_ms: timeoutMs }),
      ),
    );
  }

  async echoRoundTrip(pane: string, token: string, timeoutMs: number): Promise<void> {
    const match = { type: 'regex' as const, value: exactLine(token) };
    const seen = this.connection.call('pane.wait_for_output', { pane_id: pane, source: 'recent', lines: 10, match, timeout_ms: timeoutMs });
    await this.connection.call('pane.send_input', { pane_id: pane, text: `echo ${token}` });
    await seen;
  }

  /** The same round trip as a shell script makes it: `herdr pane run`, then `herdr wait output`, each its own process. */
  async echoRoundTripByCli(pane: string, token: string, timeoutMs: number): Promise<void> {
    await this.herdr(['pane', 'run', pane, `echo ${token}`], timeoutMs);
    await this.herdr(['wait', 'output', pane, '--match', exactLine(token), '--regex', '--lines', '10', '--timeout', String(timeoutMs)], timeoutMs);
  }

  async runCli(kind: CliKind, pane: string): Promise<void> {
    if (kind === 'version') await runFile(process.execPath, [HERDR_BIN, '--version'], { env: this.environment.env });
    else if (kind === 'list') await this.herdr(['workspace', 'list']);
    else if (kind === 'pane status') await this.herdr(['pane', 'get', pane]);
    else if (kind === 'read 80 lines') await this.herdr(['pane', 'read', pane, '--lines', '80']);
    else await this.herdr(['pane', 'run', pane, 'true']);
  }

  /** The `herdr` command against this server, as its own process. */
  private herdr(args: string[], timeoutMs = 30_000) {
    return runFile(process.execPath, [HERDR_BIN, ...args, '--socket', this.socketPath], { env: this.environment.env, timeout: timeoutMs });
  }

  async query(kind: QueryKind, pane: string): Promise<void> {
    if (kind === 'liveness') await this.connection.call('ping', {});
    else if (kind === 'pane status') await this.connection.call('pane.get', { pane_id: pane });
    else await this.connection.call('pane.read', { pane_id: pane, source: 'recent', lines: 80 });
  }

  async reportAgentState(pane: string, state: 'working' | 'idle'): Promise<void> {
    await reportAgent(this.socketPath, pane, state);
  }

  async watchOutput(command: string, pattern: string, onLine: (line: string) => void): Promise<OutputWatch> {
    const [pane = ''] = await this.createPanes(1, command);
    const subscription = await this.client.subscribe([
      { type: 'pane.output_matched', pane_id: pane, source: 'visible', match: { type: 'regex', value: pattern } },
    ]);
    void (async () => {
      for await (const line of subscription) if (line.event === 'pane.output_matched') onLine(line.data.matched_line);
    })();
    return {
      stop: async () => {
        subscription.close();
        await this.closePanes([pane]);
      },
    };
  }

  async viewOutput(command: string, mark: string, timeoutMs: number): Promise<ViewedOutput> {
    const [pane] = await this.createPanes(1, command);
    if (!pane) throw new Error('no pane');
    const stream = await this.client.stream(pane);
    const timer = setTimeout(() => stream.close(), timeoutMs);
    try {
      const start = performance.now();
      await this.connection.call('pane.send_text', { pane_id: pane, text: '\r' });
      const { bytes, resyncs } = await untilMark(stream, mark);
      return { bytes, seconds: (performance.now() - start) / 1000, resyncs };
    } finally {
      clearTimeout(timer);
      stream.close();
      await this.closePanes([pane]);
    }
  }

  /** Views every pane with a `pane.stream` that takes everything, until `stop`. */
  async streamAll(panes: readonly string[]): Promise<{ stop(): void }> {
    const streams = await Promise.all(panes.map((pane) => this.client.stream(pane)));
    for (const stream of streams) void (async () => { for await (const _line of stream); })();
    return { stop: () => streams.forEach((stream) => stream.close()) };
  }

  async listPanes(): Promise<number> {
    return (await this.connection.call('pane.list', {})).panes.length;
  }

  async closePanes(panes: readonly string[]): Promise<void> {
    await pool(panes, 16, async (pane) => {
      const workspace = this.workspaceOf.get(pane);
      this.workspaceOf.delete(pane);
      if (workspace) await this.connection.call('workspace.close', { workspace_id: workspace }).catch(() => undefined);
    });
  }

  async stats() {
    return this.connection.call('server.stats', {});
  }

  /** From /proc for a server of our own, so that reading it costs the server nothing (a request would wake it); else `server.stats`. */
  async cpuSeconds(): Promise<number> {
    return this.pid === undefined ? (await this.stats()).cpu_ms / 1000 : cpuSeconds(this.pid);
  }

  async rssBytes(): Promise<number> {
    return (await this.stats()).rss_bytes;
  }

  async stop(): Promise<void> {
    await this.closePanes([...this.workspaceOf.keys()]);
    this.connection.close();
    await this.server?.stop();
  }
}
