/**
 * Reported metadata (docs/protocol.md §5, `pane.report_metadata`,
 * `workspace.report_metadata`): display-only tokens, title, agent name and
 * state labels that clients report for a pane or a workspace. Never a state:
 * nothing here touches agent_state, and nothing is kept with the session.
 *
 * Each target (pane or workspace) keeps what each source said, with the
 * source's last seq; a report with a seq not larger than its source's last is
 * dropped (the hook rule, §10.5). Every value remembers the report that set it:
 * the newest report wins a name across sources, and a report's `ttl_ms` makes
 * the values it set vanish that long after it. One timer serves the whole
 * store, armed for the earliest expiry.
 *
 * What clients see is a merged view written onto the record (`PaneRecord.reported`,
 * `WorkspaceRecord.reportedTokens`), so `pane_info` and `workspace_info` read it
 * like any other cached fact.
 */
import { AGENT_STATUSES, type AgentStatus } from '../protocol/enums.js';
import { ProtocolError } from '../protocol/errors.js';
import { METADATA_LIMITS } from '../protocol/methods/pane-details.js';
import { seqAdmits } from '../protocol/report-seq.js';
import { clip } from '../protocol/text.js';
import type { PaneRecord, WorkspaceRecord } from './registry.js';

/** One report, as the store applies it (texts not yet cleaned). */
export interface MetadataReport {
  source: string;
  seq: bigint | undefined;
  ttlMs: number | undefined;
  tokens?: Record<string, string | null> | undefined;
  title?: string | undefined;
  displayAgent?: string | undefined;
  stateLabels?: Partial<Record<AgentStatus, string | null>> | undefined;
  clearTitle?: boolean | undefined;
  clearDisplayAgent?: boolean | undefined;
  clearStateLabels?: boolean | undefined;
}

interface Value {
  text: string;
  /** The report that set it, in the order reports arrived (newest wins across sources). */
  order: number;
  /** When it vanishes (Date.now() ms); undefined: when its target goes. */
  expiresAt: number | undefined;
}

interface SourceValues {
  seq: bigint | undefined;
  tokens: Map<string, Value>;
  title: Value | undefined;
  displayAgent: Value | undefined;
  stateLabels: Map<AgentStatus, Value>;
}

type Sources = Map<string, SourceValues>;

/** A pane's or workspace's sources, and when the first of their values expires (Infinity: none). */
interface Target {
  sources: Sources;
  nextExpiry: number;
}

/** Every name of a map the sources keep (tokens, state labels), each from the newest report that set it; undefined when none. */
function newestOfEach<K extends string>(sources: Sources, map: (source: SourceValues) => Map<K, Value>): Record<K, string> | undefined {
  const best = new Map<K, Value>();
  for (const source of sources.values()) {
    for (const [name, value] of map(source)) {
      if ((best.get(name)?.order ?? -1) < value.order) best.set(name, value);
    }
  }
  if (best.size === 0) return undefined;
  // fromEntries defines each name as its own property (a token may be named __proto__).
  return Object.fromEntries([...best].map(([name, value]) => [name, value.text])) as Record<K, string>;
}

/** One value the sources keep (title, display agent), from the newest report that set it. */
function newestOf(sources: Sources, pick: (source: SourceValues) => Value | undefined): string | undefined {
  let best: Value | undefined;
  for (const source of sources.values()) {
    const value = pick(source);
    if (value && (best?.order ?? -1) < value.order) best = value;
  }
  return best?.text;
}

/** Control characters go (line breaks and tabs become spaces), then the text is trimmed and cut. */
function cleanText(text: string): string {
  const cleaned = text.replace(/[\t\n\v\f\r]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return clip(cleaned.trim(), METADATA_LIMITS.textChars);
}

const emptySource = (): SourceValues => ({ seq: undefined, tokens: new Map(), title: undefined, displayAgent: undefined, stateLabels: new Map() });

const holdsValues = (source: SourceValues) =>
  source.tokens.size > 0 || source.title !== undefined || source.displayAgent !== undefined || source.stateLabels.size > 0;

const tokenCount = (sources: Sources) => [...sources.values()].reduce((sum, source) => sum + source.tokens.size, 0);

/** Drops what expired by `now`; true when anything did. */
function expire(sources: Sources, now: number): boolean {
  let changed = false;
  const gone = (value: Value | undefined) => value?.expiresAt !== undefined && value.expiresAt <= now;
  for (const source of sources.values()) {
    for (const map of [source.tokens, source.stateLabels] as Array<Map<string, Value>>) {
      for (const [name, value] of map) {
        if (gone(value)) {
          map.delete(name);
          changed = true;
        }
      }
    }
    if (gone(source.title)) {
      source.title = undefined;
      changed = true;
    }
    if (gone(source.displayAgent)) {
      source.displayAgent = undefined;
      changed = true;
    }
  }
  return changed;
}

function earliestExpiry(sources: Sources): number {
  let earliest = Infinity;
  const consider = (value: Value | undefined) => {
    if (value?.expiresAt !== undefined && value.expiresAt < earliest) earliest = value.expiresAt;
  };
  for (const source of sources.values()) {
    source.tokens.forEach(consider);
    source.stateLabels.forEach(consider);
    consider(source.title);
    consider(source.displayAgent);
  }
  return earliest;
}

/** Throws `metadata_limit` when the report would take the target past a limit; changes nothing. */
function checkLimits(sources: Sources, report: MetadataReport, what: string): void {
  const existing = sources.get(report.source);
  if (!existing && sources.size >= METADATA_LIMITS.sourcesPerTarget && [...sources.values()].every(holdsValues)) {
    throw new ProtocolError('metadata_limit', `${what} already shows reports of ${METADATA_LIMITS.sourcesPerTarget} sources`);
  }
  let count = tokenCount(sources);
  for (const [name, text] of Object.entries(report.tokens ?? {})) {
    const had = existing?.tokens.has(name) ?? false;
    const has = text !== null && cleanText(text) !== '';
    count += Number(has) - Number(had);
  }
  if (count > METADATA_LIMITS.tokensPerTarget) {
    throw new ProtocolError('metadata_limit', `${what} would hold ${count} tokens, more than ${METADATA_LIMITS.tokensPerTarget}`);
  }
}

/** Who hears of a change no request made. */
export interface ShownChanges {
  pane(pane: PaneRecord): void;
  workspace(workspace: WorkspaceRecord): void;
}

export class ReportedMetadata {
  private readonly panes = new Map<PaneRecord, Target>();
  private readonly workspaces = new Map<WorkspaceRecord, Target>();
  private reports = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    /** Told when a TTL ran out and what a pane or workspace shows changed (a report's change its caller sees in the answer). */
    private readonly expired: ShownChanges = { pane: () => undefined, workspace: () => undefined },
    /** A monotonic clock (as the rest of main): a wall-clock step must not expire or keep a TTL. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Applies a pane report; answers whether what the pane shows changed (false also when
   * the report was dropped for an old seq). Throws `metadata_limit` (nothing changed)
   * when the pane would hold too much.
   */
  reportPane(pane: PaneRecord, report: MetadataReport): boolean {
    const target = this.panes.get(pane) ?? { sources: new Map<string, SourceValues>(), nextExpiry: Infinity };
    const sources = target.sources;
    const source = this.admit(sources, report, 'the pane');
    if (!source) return false;
    const value = this.valueMaker(report.ttlMs);
    if (report.clearTitle) source.title = undefined;
    if (report.clearDisplayAgent) source.displayAgent = undefined;
    if (report.clearStateLabels) source.stateLabels.clear();
    if (report.title !== undefined) source.title = value(report.title);
    if (report.displayAgent !== undefined) source.displayAgent = value(report.displayAgent);
    for (const key of AGENT_STATUSES) {
      const text = report.stateLabels?.[key];
      if (text === undefined) continue;
      const made = text === null ? undefined : value(text);
      if (made) source.stateLabels.set(key, made);
      else source.stateLabels.delete(key);
    }
    this.setTokens(source, report, value);
    this.panes.set(pane, target);
    this.settle(target);
    return this.showPane(pane, target);
  }

  /** The same for a workspace (tokens only). */
  reportWorkspace(workspace: WorkspaceRecord, report: MetadataReport): boolean {
    const target = this.workspaces.get(workspace) ?? { sources: new Map<string, SourceValues>(), nextExpiry: Infinity };
    const source = this.admit(target.sources, report, 'the workspace');
    if (!source) return false;
    this.setTokens(source, report, this.valueMaker(report.ttlMs));
    this.workspaces.set(workspace, target);
    this.settle(target);
    return this.showWorkspace(workspace, target);
  }

  /** The pane went (pane-removal.ts): its reports go with it. */
  paneGone(pane: PaneRecord): void {
    this.panes.delete(pane);
  }

  workspaceGone(workspace: WorkspaceRecord): void {
    this.workspaces.delete(workspace);
    for (const pane of workspace.panes) this.panes.delete(pane);
  }

  /** Stops the expiry timer (server stop). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** The source's record if the report's seq admits it, checked against the limits; undefined: dropped as stale. */
  private admit(sources: Sources, report: MetadataReport, what: string): SourceValues | undefined {
    if (!seqAdmits(sources.get(report.source)?.seq, report.seq)) return undefined;
    checkLimits(sources, report, what);
    let source = sources.get(report.source);
    if (!source) {
      if (sources.size >= METADATA_LIMITS.sourcesPerTarget) {
        // Make room by forgetting a source that shows nothing any more (its seq goes with it).
        for (const [name, old] of sources) if (!holdsValues(old)) sources.delete(name);
      }
      source = emptySource();
      sources.set(report.source, source);
    }
    if (report.seq !== undefined) source.seq = report.seq;
    return source;
  }

  /** Makes the values of one report: cleaned text, this report's order and expiry; undefined for text that cleans to nothing. */
  private valueMaker(ttlMs: number | undefined): (text: string) => Value | undefined {
    const order = ++this.reports;
    const expiresAt = ttlMs === undefined ? undefined : this.now() + ttlMs;
    return (text) => {
      const cleaned = cleanText(text);
      return cleaned === '' ? undefined : { text: cleaned, order, expiresAt };
    };
  }

  private setTokens(source: SourceValues, report: MetadataReport, value: (text: string) => Value | undefined): void {
    for (const [name, text] of Object.entries(report.tokens ?? {})) {
      const made = text === null ? undefined : value(text);
      if (made) source.tokens.set(name, made);
      else source.tokens.delete(name);
    }
  }

  /** Notes the target's next expiry and has the timer come by then. */
  private settle(target: Target): void {
    target.nextExpiry = earliestExpiry(target.sources);
    this.armTimer(target.nextExpiry);
  }

  /** Writes the merged view onto the pane; whether it changed. */
  private showPane(pane: PaneRecord, { sources }: Target): boolean {
    const before = JSON.stringify(pane.reported);
    const title = newestOf(sources, (source) => source.title);
    const displayAgent = newestOf(sources, (source) => source.displayAgent);
    const tokens = newestOfEach(sources, (source) => source.tokens);
    const stateLabels = newestOfEach(sources, (source) => source.stateLabels);
    const shown = tokens || title || displayAgent || stateLabels;
    pane.reported = shown ? { tokens, title, displayAgent, stateLabels } : undefined;
    if (!shown && ![...sources.values()].some((source) => source.seq !== undefined)) this.panes.delete(pane);
    return JSON.stringify(pane.reported) !== before;
  }

  private showWorkspace(workspace: WorkspaceRecord, { sources }: Target): boolean {
    const before = JSON.stringify(workspace.reportedTokens);
    workspace.reportedTokens = newestOfEach(sources, (source) => source.tokens);
    if (!workspace.reportedTokens && ![...sources.values()].some((source) => source.seq !== undefined)) this.workspaces.delete(workspace);
    return JSON.stringify(workspace.reportedTokens) !== before;
  }

  private armTimer(at: number): void {
    if (at === Infinity || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expireDue(), Math.max(0, at - this.now()));
    // Expiry alone must not keep the server alive.
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.now();
    let next = Infinity;
    // Only the targets with something due are looked into.
    for (const [pane, target] of this.panes) {
      if (target.nextExpiry <= now && expire(target.sources, now) && this.showPane(pane, target)) this.expired.pane(pane);
      if (target.nextExpiry <= now) target.nextExpiry = earliestExpiry(target.sources);
      next = Math.min(next, target.nextExpiry);
    }
    for (const [workspace, target] of this.workspaces) {
      if (target.nextExpiry <= now && expire(target.sources, now) && this.showWorkspace(workspace, target)) this.expired.workspace(workspace);
      if (target.nextExpiry <= now) target.nextExpiry = earliestExpiry(target.sources);
      next = Math.min(next, target.nextExpiry);
    }
    this.armTimer(next);
  }
}

/** The title a pane's reports gave it, for agent objects (`agent_info.title`); pane_info.title stays the terminal's own title. */
export function reportedTitle(pane: PaneRecord): string | undefined {
  return pane.reported?.title;
}
