/**
 * What `herdr watch` shows, kept current: every pane with its workspace,
 * agent, state and since when, last exit code, directory and message. Loaded
 * from `workspace.list` + `pane.list`, then changed by event lines as they
 * arrive. Events name panes by compact id, which renumbers when panes close:
 * those events ask for a reload, which puts every id right again.
 */
import type { TypedEventLine } from '../../protocol/events.js';
import type { AgentState, AgentStatus } from '../../protocol/enums.js';
import type { AgentInfo, PaneInfo, WorkspaceInfo } from '../../protocol/objects.js';
import type { Approval } from '../../protocol/methods/approvals.js';

export interface FleetRow {
  /** The server's host; undefined for the local server. */
  host: string | undefined;
  paneId: string;
  stableId: string;
  workspaceId: string;
  workspaceNumber: number;
  workspaceLabel: string;
  /** Position in its workspace's layout order. */
  order: number;
  agent: string | undefined;
  /** The agent's name (agent.start's `name`, agent.rename), from `agent.list`; read again at each reload. */
  name: string | undefined;
  state: AgentState;
  /** The state with `done` (docs/protocol.md §13.2). */
  status: AgentStatus;
  /** When the state took its value (ms since the epoch). */
  since: number;
  lastExitCode: number | undefined;
  cwd: string | undefined;
  message: string | undefined;
  /** Prompts waiting in its agent's queue (docs/protocol.md §13.7). */
  queued: number;
  /** A blocked agent's question and menu, from the approval inbox (§13.6). */
  approval: Pick<Approval, 'question' | 'options' | 'selected' | 'question_hash'> | undefined;
  /** Whether it is printing (docs/protocol.md §10.7): what a pane without an agent shows. */
  output: { active: boolean; lastAt: number | undefined; activeSince: number | undefined };
}

/** Who needs a person first: blocked agents, then finished ones, then busy ones, then plain shells. */
export const STATE_ORDER: Record<AgentState, number> = { blocked: 0, idle: 1, working: 2, unknown: 3 };

export interface EventEffect {
  /** The picture changed: draw again. */
  changed: boolean;
  /** Ids or facts the events do not carry changed: load the lists again. */
  reload: boolean;
}

/** The event rules' firings seen since the view started (docs/protocol.md §13.8). */
export interface RuleActivity {
  fired: number;
  last: { rule: string; what: string; outcome: string; at: number } | undefined;
}

export class Fleet {
  readonly rules: RuleActivity = { fired: 0, last: undefined };
  private readonly byPaneId = new Map<string, FleetRow>();
  private readonly labels = new Map<string, { number: number; label: string }>();

  constructor(readonly host: string | undefined = undefined) {}

  /** `agents` (agent.list) give the rows their agents' names. */
  load(workspaces: WorkspaceInfo[], panes: PaneInfo[], agents: readonly AgentInfo[] = []): void {
    this.labels.clear();
    for (const workspace of workspaces) this.labels.set(workspace.workspace_id, { number: workspace.number, label: workspace.label });
    const names = new Map(agents.flatMap((agent) => (agent.name === undefined ? [] : [[agent.terminal_id, agent.name] as const])));
    this.byPaneId.clear();
    panes.forEach((pane, index) => this.byPaneId.set(pane.pane_id, { ...this.rowOf(pane, index), name: names.get(pane.stable_id) }));
  }

  /** The approval inbox's entries (`approvals.list`): each blocked row gets its question and menu. */
  setApprovals(approvals: readonly Approval[]): void {
    const byPane = new Map(approvals.map((entry) => [entry.stable_id, entry]));
    for (const row of this.byPaneId.values()) {
      const entry = byPane.get(row.stableId);
      row.approval = entry && row.state === 'blocked' ? { question: entry.question, options: entry.options, selected: entry.selected, question_hash: entry.question_hash } : undefined;
    }
  }

  /** Whether an agent is blocked (its question is worth asking the inbox for). */
  get anyBlocked(): boolean {
    for (const row of this.byPaneId.values()) if (row.state === 'blocked') return true;
    return false;
  }

  /** Rows in the order shown (compareRows). */
  rows(): FleetRow[] {
    return [...this.byPaneId.values()].sort(compareRows);
  }

  get workspaceCount(): number {
    return this.labels.size;
  }

  apply(line: TypedEventLine, now: number): EventEffect {
    switch (line.event) {
      case 'pane.agent_state_changed': {
        const row = this.byPaneId.get(line.data.pane_id);
        if (!row) return { changed: false, reload: true };
        if (row.state !== line.data.state) row.since = now;
        row.state = line.data.state;
        row.status = line.data.agent_status;
        row.agent = line.data.agent;
        if (row.state !== 'blocked') row.approval = undefined;
        // A blocked agent's question comes with pane_info and the inbox, not with the event.
        return { changed: true, reload: true };
      }
      case 'pane.agent_status_changed': {
        // Only where subscribed (herdr web): `done` ↔ `idle` changes no state.
        const row = this.byPaneId.get(line.data.pane_id);
        if (row) row.status = line.data.agent_status;
        return { changed: row !== undefined, reload: row === undefined };
      }
      case 'pane_agent_detected': {
        const row = this.byPaneId.get(line.data.pane_id);
        if (row) row.agent = line.data.agent;
        return { changed: row !== undefined, reload: row === undefined };
      }
      case 'pane.prompt_queued': {
        const row = this.byPaneId.get(line.data.pane_id);
        if (row) row.queued = Math.max(row.queued, line.data.position + 1);
        return { changed: row !== undefined, reload: row === undefined };
      }
      case 'rule.fired': {
        const { data } = line;
        this.rules.fired++;
        // A skip says why in a word; a failure's error is for `herdr rules list` and the event itself.
        this.rules.last = { rule: data.name ?? data.rule_id, what: data.action, outcome: data.outcome === 'skipped' ? (data.reason ?? 'skipped') : data.outcome, at: now };
        return { changed: true, reload: false };
      }
      case 'pane.output_activity': {
        const row = this.byPaneId.get(line.data.pane_id);
        if (row) row.output = { active: line.data.active, lastAt: line.data.last_output_at, activeSince: line.data.active_since };
        return { changed: row !== undefined, reload: row === undefined };
      }
      case 'pane.command_finished': {
        const row = this.byPaneId.get(line.data.pane_id);
        if (row) row.lastExitCode = line.data.exit_code;
        // The command may have changed the directory.
        return { changed: row !== undefined, reload: true };
      }
      case 'pane_created':
        this.byPaneId.set(line.data.pane.pane_id, this.rowOf(line.data.pane, Number.MAX_SAFE_INTEGER));
        return { changed: true, reload: true };
      case 'pane_closed':
      case 'pane_exited':
        this.byPaneId.delete(line.data.pane_id);
        return { changed: true, reload: true };
      case 'workspace_closed':
        for (const [id, row] of this.byPaneId) if (row.workspaceId === line.data.workspace_id) this.byPaneId.delete(id);
        this.labels.delete(line.data.workspace_id);
        return { changed: true, reload: true };
      default:
        return { changed: false, reload: true };
    }
  }

  private rowOf(pane: PaneInfo, order: number): FleetRow {
    const workspace = this.labels.get(pane.workspace_id);
    return {
      host: this.host,
      paneId: pane.pane_id,
      stableId: pane.stable_id,
      workspaceId: pane.workspace_id,
      workspaceNumber: workspace?.number ?? Number(pane.workspace_id),
      workspaceLabel: workspace?.label ?? '',
      order,
      agent: pane.agent,
      name: undefined,
      state: pane.agent_state,
      status: pane.agent_status,
      since: pane.agent_state_since,
      lastExitCode: pane.last_exit_code,
      cwd: pane.cwd,
      message: pane.agent_message,
      queued: pane.queued_prompts ?? 0,
      approval: undefined,
      output: { active: pane.output_active ?? false, lastAt: pane.last_output_at, activeSince: pane.output_active_since },
    };
  }
}

/** The order shown: by state (STATE_ORDER), then host (the local server first), workspace and layout. */
export function compareRows(a: FleetRow, b: FleetRow): number {
  return (
    STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
    (a.host ?? '').localeCompare(b.host ?? '') ||
    a.workspaceNumber - b.workspaceNumber ||
    a.order - b.order
  );
}

/** How many rows are in each state (the view's title). */
export function stateCounts(rows: readonly FleetRow[]): Record<AgentState, number> {
  const counts: Record<AgentState, number> = { blocked: 0, idle: 0, working: 0, unknown: 0 };
  for (const row of rows) counts[row.state]++;
  return counts;
}
