/** `herdr server` (run in the foreground) and `herdr server stop`. */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { HerdrServer } from '../../main/server.js';
import { currentSocketPathFor, resolveSocketPath } from '../../protocol/socket-path.js';
import { EXIT } from '../exit-codes.js';
import { exitWith } from '../failure.js';
import { type SocketOption, send, shown } from '../output.js';
import { defaultAgentManifestDir } from '../../protocol/config-dir.js';
import { addServerConfigCommands } from './server-config.js';
import { DEFAULT_RECLAIM_AFTER_MS } from '../../protocol/thread.js';
import { niceValue, nonNegativeInt, positiveInt } from './parse.js';

interface ServerFlags extends SocketOption {
  /** A path, or false for `--no-current-socket`. */
  currentSocket?: string | false;
  workers?: number;
  cols: number;
  rows: number;
  shell?: string;
  logLevel: string;
  shardTimeout: number;
  shardHeapMb: number;
  shardNice: number;
  reclaimAfter: number;
  stateDir?: string;
  state: boolean;
  restore: boolean;
  resumeAgents?: boolean;
  worktreesDir?: string;
  /** A directory, or false for `--no-agent-manifests`. */
  agentManifests?: string | false;
}

export function addServerCommands(program: Command): void {
  const server = program
    .command('server')
    .enablePositionalOptions()
    .description('run the herdr server in the foreground (stop it with Ctrl-C, SIGTERM or `herdr server stop`)')
    .option('--socket <path>', 'socket path (default: $HERDR_SOCKET_PATH, then $XDG_RUNTIME_DIR/herdr.sock, …; docs/protocol.md §1)')
    .option('--current-socket <path>', "the second socket, for clients of herdr's current protocol (default: beside --socket, herdr-current.sock; docs/protocol.md §15)")
    .option('--no-current-socket', "listen on no second socket (current clients then say `protocol` in each request)")
    .option('--workers <n>', 'shard worker threads (default: one per core)', positiveInt)
    .option('--cols <n>', 'default pane width', positiveInt, 120)
    .option('--rows <n>', 'default pane height', positiveInt, 40)
    .option('--shell <path>', 'program of panes started without a command (default: $SHELL, else /bin/sh)')
    .option('--log-level <level>', 'quiet | info', 'info')
    .option('--shard-timeout <ms>', 'a shard silent this long (heartbeat included) is restarted, its panes reported exited; also the deadline of a request to a shard', positiveInt, 10_000)
    .option('--shard-heap-mb <n>', "a shard's JavaScript heap limit: past it that shard alone dies and is replaced", positiveInt, 2048)
    .option('--shard-nice <n>', 'nice value of the shard threads, so the main thread answers clients first under load; pane processes inherit it (0: unchanged)', niceValue, 10)
    .option('--reclaim-after <ms>', 'a shard that printed nothing this long seals its history and gives memory back (back-to-back bursts keep it)', nonNegativeInt, DEFAULT_RECLAIM_AFTER_MS)
    .option('--state-dir <path>', 'where the session is kept across restarts (default: $XDG_STATE_HOME/herdr, else ~/.local/state/herdr)')
    .option('--no-restore', 'start empty; the previous session is moved aside, not restored')
    .option('--resume-agents', 'restore panes whose agent reported a session by running its resume command (claude --resume <id>, …)')
    .option('--no-state', 'keep no session on disk at all')
    .option('--worktrees-dir <path>', 'where `worktree create` puts worktrees given no --path (default: $XDG_DATA_HOME/herdr/worktrees, else ~/.local/share/herdr/worktrees)')
    .option('--agent-manifests <dir>', "where agent detection manifests are read from, herdr's <agent>.toml files (default: $XDG_CONFIG_HOME/herdr/agent-detection, else ~/.config/herdr/agent-detection; docs/protocol.md §10.8)")
    .option('--no-agent-manifests', 'read no agent detection manifests: the built-in tables only')
    .action(async (flags: ServerFlags) => runServer(flags));

  server
    .command('stop')
    .description('stop the running server (panes are ended, the socket removed)')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) => send('cli:server:stop', 'server.stop', {}, flags, shown(() => 'the server is stopping: its panes are hung up\n')));

  addServerConfigCommands(server);
}

async function runServer(flags: ServerFlags): Promise<void> {
  // Loaded here, not at the top: every other command starts without the server's modules (~100 ms of CPU).
  const [{ HerdrServer, DEBUG_FAULTS_ENV }, { StartupError }, { defaultStateDir, sessionPaths }, { tuneMalloc }] = await Promise.all([
    import('../../main/server.js'),
    import('../../main/socket-file.js'),
    import('../../main/persistence/state-dir.js'),
    import('../../os/malloc-tuning.js'),
  ]);
  const mallocTuned = tuneMalloc();
  const socketPath = flags.socket ?? resolveSocketPath();
  const currentSocketPath = flags.currentSocket === false ? undefined : (flags.currentSocket ?? currentSocketPathFor(socketPath));
  const log = (message: string) => {
    if (flags.logLevel !== 'quiet') process.stderr.write(`herdr: ${message}\n`);
  };
  let server: HerdrServer;
  try {
    const paths = flags.state ? sessionPaths(resolve(flags.stateDir ?? defaultStateDir()), socketPath) : undefined;
    server = await HerdrServer.start({
      socketPath,
      currentSocketPath,
      workers: flags.workers ?? Math.max(1, availableParallelism()),
      cols: flags.cols,
      rows: flags.rows,
      shell: flags.shell ?? process.env.SHELL ?? '/bin/sh',
      shards: { stallMs: flags.shardTimeout, heapMb: flags.shardHeapMb, debugFaults: process.env[DEBUG_FAULTS_ENV] === '1', blocksDir: paths?.blocks, nice: flags.shardNice, reclaimAfterMs: flags.reclaimAfter },
      persistence: paths ? { paths, restore: flags.restore, resumeAgents: flags.resumeAgents ?? false } : undefined,
      worktreesDir: flags.worktreesDir === undefined ? undefined : resolve(flags.worktreesDir),
      agentManifestDir: flags.agentManifests === false ? undefined : resolve(flags.agentManifests ?? defaultAgentManifestDir()),
      log,
    });
  } catch (error) {
    // A socket path that is not ours, a state directory that cannot be made: one line, exit 1.
    if (error instanceof StartupError || (error as NodeJS.ErrnoException).code !== undefined) exitWith(error);
    throw error;
  }
  // A bug on the main thread is logged; the other agents' panes must not end with it.
  process.on('uncaughtException', (error) => console.error('herdr: uncaught exception (the server goes on):', error));
  process.on('unhandledRejection', (reason) => console.error('herdr: unhandled rejection (the server goes on):', reason));
  log(`listening on ${socketPath}${currentSocketPath ? ` (herdr's current protocol: ${currentSocketPath})` : ''}${mallocTuned ? '' : ' (native/malloc-tuning not loaded: more memory per pane)'}`);
  server.onStopped(() => {
    log('stopped');
    process.exit(EXIT.ok);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void server.stop());
  }
}
