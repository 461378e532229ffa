/**
 * Starting a pane's process for `workspace.create` and `pane.split`: the
 * checks that make a bad request fail before anything is spawned, the size
 * and environment a pane gets, and a spawn failure in its method's terms.
 */
import { resolve } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import type { SpawnParams } from '../../protocol/thread.js';
import { type PaneKey, paneStableId, tabStableId, workspaceStableId } from '../ids.js';
import type { PaneFacts } from '../registry.js';
import type { ShardHandle } from '../shard-handle.js';
import { directoryProblem, paneEnvironment, programProblem } from '../spawn-spec.js';

export interface SpawnRequest {
  cwd: string | undefined;
  command: string[] | undefined;
  env: Record<string, string> | undefined;
  cols: number | undefined;
  rows: number | undefined;
  /** `current`: HERDR_SOCKET_PATH names the current-protocol socket (a herdr plugin's pane speaks that protocol). */
  herdrSocket?: 'current' | undefined;
}

export type SpawnFailure = 'workspace_create_failed' | 'pane_split_failed' | 'tab_create_failed';

export interface SpawnDefaults {
  socketPath: string;
  currentSocketPath?: string | undefined;
  cols: number;
  rows: number;
  /** The program of a pane without `command`. */
  shell: string;
}

/** Where a new pane goes and how it starts. */
export interface SpawnPlace {
  shard: ShardHandle;
  workspaceUid: number;
  /** The tab it joins (HERDR_TAB_ID). */
  tabUid: number;
  pane: PaneKey;
  /** Absolute, already resolved. */
  cwd: string;
  /** A split without `cwd` starts where the target pane's shell is now. */
  inheritCwdFromPaneUid?: number;
}

export class PaneSpawner {
  private stopping = false;

  constructor(private readonly defaults: SpawnDefaults) {}

  /** The server is shutting down: no new panes. */
  refuseFromNowOn(): void {
    this.stopping = true;
  }

  refuseWhileStopping(): void {
    if (this.stopping) throw new ProtocolError('server_unavailable', 'the server is shutting down');
  }

  /** The request's cwd, resolved; `fallback` when it has none. */
  cwdOf(request: SpawnRequest, fallback: string): string {
    return request.cwd === undefined ? fallback : resolve(request.cwd);
  }

  /** Checks the directory and program, then starts the process; the facts the registry keeps of it. */
  async spawn(request: SpawnRequest, place: SpawnPlace, failure: SpawnFailure): Promise<PaneFacts> {
    this.refuseWhileStopping();
    const argv = this.checkedArgv(request, place.cwd, failure);
    const size = { cols: request.cols ?? this.defaults.cols, rows: request.rows ?? this.defaults.rows };
    const params: SpawnParams = {
      paneUid: place.pane.uid,
      workspaceUid: place.workspaceUid,
      argv,
      cwd: place.cwd,
      ...(place.inheritCwdFromPaneUid === undefined ? {} : { inheritCwdFromPaneUid: place.inheritCwdFromPaneUid }),
      env: paneEnvironment(request.env, this.envIds(place.workspaceUid, place.tabUid, place.pane.stableNumber, request.herdrSocket)),
      ...size,
    };
    // A failure the checks could not foresee (fd limit, …) keeps its method's code.
    const started = await place.shard.spawn(params).catch((error: unknown) => {
      throw new ProtocolError(failure, `cannot start the pane: ${error instanceof Error ? error.message : String(error)}`);
    });
    return { ...started, ...size, launch: { command: request.command, env: request.env } };
  }

  /** The HERDR_* variables a pane's processes get (docs/protocol.md §10.5). */
  envIds(workspaceUid: number, tabUid: number, paneStableNumber: number, herdrSocket?: 'current') {
    return {
      socketPath: herdrSocket === 'current' ? (this.defaults.currentSocketPath ?? this.defaults.socketPath) : this.defaults.socketPath,
      currentSocketPath: this.defaults.currentSocketPath,
      workspaceStableId: workspaceStableId(workspaceUid),
      paneStableId: paneStableId(workspaceUid, paneStableNumber),
      tabStableId: tabStableId(workspaceUid, tabUid),
    };
  }

  get shell(): string {
    return this.defaults.shell;
  }

  /** Why the request could not start in `cwd` (the directory, then the program on the pane's PATH), or undefined when it can. */
  startProblem(request: Pick<SpawnRequest, 'command' | 'env'>, cwd: string): string | undefined {
    const program = request.command?.[0] ?? this.defaults.shell;
    return directoryProblem(cwd) ?? programProblem(program, request.env?.PATH ?? process.env.PATH, cwd);
  }

  private checkedArgv(request: SpawnRequest, cwd: string, failure: SpawnFailure): string[] {
    const problem = this.startProblem(request, cwd);
    if (problem) throw new ProtocolError(failure, problem);
    return request.command ?? [this.defaults.shell];
  }
}
