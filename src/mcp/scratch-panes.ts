/**
 * `run_command`'s scratch panes: one shell per host and directory for this `herdr mcp`
 * (one caller), used again by the next command instead of a workspace per call. A pane is
 * lent to one command at a time; one whose command did not end (a timeout), that went away
 * (an `exit` ended its shell), or whose shell now stands in another directory (a `cd`) or runs
 * something (it is looked at before it is lent) is not lent again. A new one is given the
 * shell integration (src/mcp/run-command.ts `markCommands`), so that commands are typed into
 * it as they are.
 */
import type { PaneInfo } from '../protocol/objects.js';
import type { Host } from './host.js';
import { markCommands } from './run-command.js';

/** A scratch shell, whether it marks its commands (OSC 133), and its prompt's end (`B`: one given the integration). */
export interface Scratch {
  pane: PaneInfo;
  marked: boolean;
  marksInput: boolean;
}

export class ScratchPanes {
  /** Free panes by host and directory, as stable ids. */
  private readonly free = new Map<string, string[]>();
  /** The scratch shells given the integration, by host and stable id. */
  private readonly marking = new Set<string>();

  /** A free scratch pane of `host` in `cwd`, or (none, or `fresh`) a new workspace's shell there. */
  async take(host: Host, place: { cwd?: string; env?: Record<string, string> }, fresh: boolean, timeoutMs: number): Promise<Scratch> {
    const key = this.keyOf(host, place.cwd);
    const free = fresh ? [] : (this.free.get(key) ?? []);
    for (let id = free.pop(); id !== undefined; id = free.pop()) {
      const pane = await this.atPrompt(host, id, place.cwd);
      if (pane) return { pane, marked: this.marks(host, pane), marksInput: this.marksInput(host, pane) };
      this.marking.delete(this.idOf(host, id));
    }
    const { workspace } = await host.client.call('workspace.create', { focus: false, label: 'run_command', ...place });
    const { panes } = await host.client.call('pane.list', { workspace_id: workspace.stable_id });
    const pane = panes[0];
    if (!pane) throw new Error(`workspace ${workspace.stable_id} has no pane`);
    const marked = await markCommands(host.client, pane, timeoutMs);
    if (marked) this.marking.add(this.idOf(host, pane.stable_id));
    return { pane, marked, marksInput: marked };
  }

  /** The pane's shell marks its commands: it reported an exit code, or it is a scratch shell given the integration. */
  marks(host: Host, pane: PaneInfo): boolean {
    return pane.last_exit_code !== undefined || this.marking.has(this.idOf(host, pane.stable_id));
  }

  /** The pane is a scratch shell given the integration, whose prompt ends with OSC 133 `B`. */
  marksInput(host: Host, pane: PaneInfo): boolean {
    return this.marking.has(this.idOf(host, pane.stable_id));
  }

  /** Its shell ended (an `exit` in its command): it is never lent again. */
  ended(host: Host, pane: PaneInfo): void {
    this.marking.delete(this.idOf(host, pane.stable_id));
    this.withdraw(host, pane);
  }

  /**
   * The pane, when its shell is at its prompt (nothing else in front) in `cwd`: read from /proc
   * now (`pane.process_info`), as a `cd` a moment ago is not yet in `pane.get`'s cwd.
   */
  private async atPrompt(host: Host, id: string, cwd: string | undefined): Promise<PaneInfo | undefined> {
    try {
      const { pane } = await host.client.call('pane.get', { pane_id: id });
      const { process_info: info } = await host.client.call('pane.process_info', { pane_id: id });
      const shell = info.foreground_processes.find((process) => process.pid === info.shell_pid);
      const here = cwd === undefined || shell?.cwd === cwd;
      return pane.agent === undefined && info.foreground_process_group_id === info.shell_pid && here ? pane : undefined;
    } catch {
      return undefined; // gone
    }
  }

  /**
   * A command named this pane itself: it is not lent while that runs. The key it was kept
   * under, to give it back with once that command ended; undefined when it was not kept.
   */
  withdraw(host: Host, pane: PaneInfo): string | undefined {
    for (const [key, ids] of this.free) {
      const at = ids.indexOf(pane.stable_id);
      if (at < 0 || !key.startsWith(`${host.name ?? ''}\0`)) continue;
      ids.splice(at, 1);
      return key;
    }
    return undefined;
  }

  /** Its command ended: the next one may use it. */
  giveBack(key: string, pane: PaneInfo): void {
    this.free.set(key, [...(this.free.get(key) ?? []), pane.stable_id]);
  }

  keyOf(host: Host, cwd: string | undefined): string {
    return `${host.name ?? ''}\0${cwd ?? ''}`;
  }

  private idOf(host: Host, id: string): string {
    return `${host.name ?? ''}\0${id}`;
  }
}
