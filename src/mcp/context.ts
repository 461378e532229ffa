/**
 * What every tool and resource of `herdr mcp` works with: the herdr servers it
 * drives (the local one, and any `--host` over ssh), each by its kept-alive
 * client, and a log that is never stdout. Where hosts are mixed, ids are
 * host-qualified as `herdr fleet list` writes them (docs/remote.md): a remote
 * server's `buildbox/w1:p3`, the local server's `w1:p3` as it is.
 */
import { HerdrClient } from '../client/client.js';
import type { HostTarget } from '../client/transport.js';
import { ToolError, describeError } from './tool-result.js';
import { callerCwd, callerEnv } from '../client/caller-place.js';
import type { Host } from './host.js';
import { ScratchPanes } from './scratch-panes.js';

export type { Host } from './host.js';

export class McpContext {
  readonly hosts: readonly Host[];
  /** run_command's shells, kept for this session. */
  readonly scratch = new ScratchPanes();

  constructor(
    targets: readonly HostTarget[],
    /** stderr only: stdout carries the MCP frames and nothing else. */
    readonly log: (message: string) => void,
  ) {
    this.hosts = targets.map((target) => ({ name: target.host, client: new HerdrClient({ dialer: target.dialer }) }));
  }

  /**
   * Where a new pane of `host` starts when the tool call names no directory: for the local
   * server where `herdr mcp` stands (its directory, its PATH), as the CLI does; a remote
   * server's own (this machine's directory means nothing there).
   */
  placeOf(host: Host, cwd: string | undefined, env: Record<string, string> | undefined): { cwd?: string; env?: Record<string, string> } {
    if (host.name !== undefined) return { ...(cwd === undefined ? {} : { cwd }), ...(env === undefined ? {} : { env }) };
    const callerPath = callerEnv(env);
    return { cwd: callerCwd(cwd), ...(callerPath === undefined ? {} : { env: callerPath }) };
  }

  /** Several servers: remote ids are written with their host. */
  get mixed(): boolean {
    return this.hosts.length > 1;
  }

  /** The host an id or target names (`buildbox/w1:p3`, else the local server, else the only one) and the id there. */
  resolve(id: string): { host: Host; id: string } {
    const slash = id.indexOf('/');
    if (slash > 0) {
      const name = id.slice(0, slash);
      const host = this.hosts.find((candidate) => (candidate.name ?? 'local') === name);
      if (host) return { host, id: id.slice(slash + 1) };
    }
    const host = this.hosts.find((candidate) => candidate.name === undefined) ?? (this.hosts.length === 1 ? this.hosts[0] : undefined);
    if (!host) throw new ToolError('host_required', `${id} names no host: write it as host/${id} (hosts: ${this.hostNames().join(', ')})`);
    return { host, id };
  }

  /** The host of this name (`local` or none: the local server). */
  host(name: string | undefined): Host {
    const host = name === undefined ? this.resolve('').host : this.hosts.find((candidate) => (candidate.name ?? 'local') === name);
    if (!host) throw new ToolError('host_not_found', `no host ${name} (hosts: ${this.hostNames().join(', ')})`);
    return host;
  }

  /** An id as the agent is given it: with its host where hosts are mixed and it is a remote one. */
  qualify(host: Host, id: string): string {
    return this.mixed && host.name !== undefined ? `${host.name}/${id}` : id;
  }

  /**
   * The same question to every server at once. One server down does not hide the others:
   * it is listed as unreachable; alone, its failure is the tool's error.
   */
  async askAll<T>(ask: (host: Host) => Promise<T>): Promise<{ answers: Array<{ host: Host; value: T }>; unreachable: Array<{ host: string; error: string }> }> {
    const settled = await Promise.allSettled(this.hosts.map(ask));
    const answers: Array<{ host: Host; value: T }> = [];
    const unreachable: Array<{ host: string; error: string }> = [];
    settled.forEach((result, index) => {
      const host = this.hosts[index];
      if (!host) return;
      if (result.status === 'fulfilled') return void answers.push({ host, value: result.value });
      if (!this.mixed) throw result.reason;
      unreachable.push({ host: host.name ?? 'local', error: describeError(result.reason) });
    });
    return { answers, unreachable };
  }

  hostNames(): string[] {
    return this.hosts.map((host) => host.name ?? 'local');
  }

  close(): void {
    for (const host of this.hosts) host.client.close();
  }
}
