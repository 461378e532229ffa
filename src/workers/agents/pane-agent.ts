/**
 * Agent detection for one pane (docs/protocol.md §10): which agent holds the terminal's
 * foreground process group, and which state its screen shows. Process facts
 * come from /proc on a slow tick (and soon after screen changes); the screen
 * is re-read only when it changed. Only changes are reported.
 */
import { readFileSync } from 'node:fs';
import type { AgentName, AgentState } from '../../protocol/objects.js';
import { StateTracker, agentOfProcess } from './detect.js';

/** How long an agent that left the foreground keeps the pane (its final `idle` must be seen). */
export const AGENT_LINGER_MS = 3000;

export interface AgentReport {
  agent: AgentName | undefined;
  state: AgentState;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The foreground process group of `pid`'s terminal (`tpgid`, field 8 of /proc/<pid>/stat). */
function foregroundGroup(pid: number): number | undefined {
  const stat = readProc(pid, 'stat');
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tpgid = Number(fields[5]);
  return tpgid > 0 ? tpgid : undefined;
}

/** The agent running in the foreground of the pane whose first process is `pid`, if any. */
export function foregroundAgent(pid: number): AgentName | undefined {
  const leader = foregroundGroup(pid);
  if (leader === undefined) return undefined;
  const comm = readProc(leader, 'comm')?.trim();
  if (!comm) return undefined;
  const argv = (readProc(leader, 'cmdline') ?? '').split('\0').filter(Boolean);
  return agentOfProcess(comm, argv);
}

/** Which agent holds a pane's foreground, from its first process's pid. */
export type ForegroundProbe = (pid: number) => AgentName | undefined;

export class PaneAgent {
  private agent: AgentName | undefined;
  private lingerUntil: number | undefined;
  private readonly tracker = new StateTracker();
  private reported: AgentReport = { agent: undefined, state: 'unknown' };
  lastProcessCheck = 0;

  constructor(private readonly probe: ForegroundProbe = foregroundAgent) {}

  get current(): AgentName | undefined {
    return this.agent;
  }

  /** Looks at the foreground process; true when the pane's agent changed (the screen needs a look). */
  checkProcess(pid: number, now: number): boolean {
    this.lastProcessCheck = now;
    const found = this.probe(pid);
    if (found) {
      this.lingerUntil = undefined;
      if (found === this.agent) return false;
      this.agent = found;
      return true;
    }
    if (!this.agent) return false;
    this.lingerUntil ??= now + AGENT_LINGER_MS;
    if (now < this.lingerUntil) return false;
    this.agent = undefined;
    this.lingerUntil = undefined;
    return true;
  }

  /**
   * Re-reads the state from the screen; returns the new report when agent or
   * state changed, and when a held state should be looked at again.
   */
  evaluate(screen: () => string, now: number): { report?: AgentReport; recheckAt?: number } {
    const { state, recheckAt } = this.tracker.update(this.agent, this.agent ? screen() : '', now);
    const next: AgentReport = { agent: this.agent, state };
    const changed = next.agent !== this.reported.agent || next.state !== this.reported.state;
    if (changed) this.reported = next;
    return { ...(changed ? { report: next } : {}), ...(recheckAt === undefined ? {} : { recheckAt }) };
  }
}
