/**
 * Running a plugin's commands (docs/protocol.md §16): an argv started directly, never
 * through a shell, in the plugin's directory, with herdr's plugin environment; its
 * stdout and stderr kept (64 KiB each, then a note that the rest was dropped) in a log of
 * the last 200 runs. At most 32 run at once. The request that starts one is answered at
 * once with the run as `running`; the log says how it ended.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import type { InstalledPlugin, PluginCommandLog, PluginContext } from '../../protocol/plugins.js';

const OUTPUT_LIMIT = 64 * 1024;
const LOG_LIMIT = 200;
export const MAX_RUNNING = 32;

export interface CommandRun {
  plugin: InstalledPlugin;
  command: string[];
  /** The action it runs (HERDR_PLUGIN_ACTION_ID), if any. */
  actionId?: string | undefined;
  /** `startup`, or the event an event hook runs for (HERDR_PLUGIN_EVENT). */
  event?: string | undefined;
  /** The event as herdr's envelope (HERDR_PLUGIN_EVENT_JSON), for an event hook. */
  eventJson?: string | undefined;
  context: PluginContext;
  /** herdr's plugin variables: socket, binary, plugin root, config and state directories. */
  env: Record<string, string>;
}

/** Output kept up to a limit; past it, a note says what was dropped. */
class CappedText {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = false;

  add(chunk: Buffer): void {
    const room = OUTPUT_LIMIT - this.kept;
    if (chunk.length > room) this.dropped = true;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped ? `${text}\n[herdr kept the first ${OUTPUT_LIMIT} bytes of this output]` : text;
  }
}

/** The program as herdr starts it: a relative path with a slash is the plugin's own file. */
function programIn(root: string, program: string): string {
  return program.includes('/') && !isAbsolute(program) ? join(root, program) : program;
}

export class PluginCommands {
  private readonly logs: PluginCommandLog[] = [];
  private running = 0;
  private nextId = 1;

  /** Starts the command; the log entry as it stands now (`running`, or `failed` when over the limit). */
  start(run: CommandRun): PluginCommandLog {
    const [program, ...args] = run.command;
    if (program === undefined) throw new ProtocolError('invalid_plugin_command', 'the command is empty');
    const log: PluginCommandLog = {
      log_id: `plugin-log-${this.nextId++}`,
      plugin_id: run.plugin.plugin_id,
      ...(run.actionId === undefined ? {} : { action_id: run.actionId }),
      ...(run.event === undefined ? {} : { event: run.event }),
      command: run.command,
      status: 'running',
      started_unix_ms: Date.now(),
    };
    if (this.running >= MAX_RUNNING) {
      const error = `${MAX_RUNNING} plugin commands already run; wait for one to end`;
      this.keep({ ...log, status: 'failed', finished_unix_ms: log.started_unix_ms, stdout: '', stderr: '', error });
      throw new ProtocolError('plugin_command_limit_reached', error);
    }
    this.keep(log);
    this.running += 1;
    const stdout = new CappedText();
    const stderr = new CappedText();
    let spawnError: string | undefined;
    let child;
    try {
      child = spawn(programIn(run.plugin.plugin_root, program), args, {
        cwd: run.plugin.plugin_root,
        env: this.environment(run),
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: false,
      });
    } catch (error) {
      this.running -= 1;
      Object.assign(log, { status: 'failed', finished_unix_ms: Date.now(), stdout: '', stderr: '', error: (error as Error).message });
      return { ...log };
    }
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('error', (error) => (spawnError ??= error.message));
    // 'close': the process ended and its output has been read to the end (or it never started).
    child.on('close', (code, signal) => {
      this.running -= 1;
      log.finished_unix_ms = Date.now();
      // A program that never started has no exit code (node reports the errno as one).
      if (code !== null && spawnError === undefined) log.exit_code = code;
      log.stdout = stdout.text();
      log.stderr = stderr.text();
      const error = spawnError ?? (signal ? `ended by ${signal}` : undefined);
      if (error !== undefined) log.error = error;
      log.status = error === undefined && code === 0 ? 'succeeded' : 'failed';
    });
    return { ...log };
  }

  /** The newest `limit` runs (of one plugin, or all), oldest first. */
  list(pluginId: string | undefined, limit: number): PluginCommandLog[] {
    const chosen = pluginId === undefined ? this.logs : this.logs.filter((log) => log.plugin_id === pluginId);
    return chosen.slice(Math.max(0, chosen.length - limit)).map((log) => ({ ...log }));
  }

  private keep(log: PluginCommandLog): void {
    this.logs.push(log);
    if (this.logs.length > LOG_LIMIT) this.logs.splice(0, this.logs.length - LOG_LIMIT);
  }

  /** The server's environment, then herdr's plugin variables (which nothing overrides). */
  private environment(run: CommandRun): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, ...run.env };
    env.HERDR_PLUGIN_CONTEXT_JSON = JSON.stringify(run.context);
    if (run.actionId !== undefined) env.HERDR_PLUGIN_ACTION_ID = run.actionId;
    if (run.event !== undefined) env.HERDR_PLUGIN_EVENT = run.event;
    if (run.eventJson !== undefined) env.HERDR_PLUGIN_EVENT_JSON = run.eventJson;
    const { context } = run;
    const fromContext: Array<[string, string | undefined]> = [
      ['HERDR_WORKSPACE_ID', context.workspace_id],
      ['HERDR_TAB_ID', context.tab_id],
      ['HERDR_PANE_ID', context.focused_pane_id],
      ['HERDR_PLUGIN_CLICKED_URL', context.clicked_url],
      ['HERDR_PLUGIN_LINK_HANDLER_ID', context.link_handler_id],
    ];
    // A variable the context does not give is not inherited from the server's own environment either.
    for (const [name, value] of fromContext) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    return env;
  }
}
