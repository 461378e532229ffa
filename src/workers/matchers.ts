/**
 * Output matchers of one shard (waits and `pane.output_matched`
 * subscriptions). Evaluated only for panes whose screen changed, on a short
 * coalescing timer, and once right after registration. A pane's matchers that
 * read the same window share one read and one RE2.Set pass (literal substrings
 * escaped into it); only the patterns the set reports are checked line by line
 * for the top-most matching line. A message is posted only when a matcher
 * flips between "no match" and "match".
 */
import RE2 from 're2';
import type { ReadResult, MatcherParams } from '../protocol/thread.js';

export type MatchChange =
  | { matcherId: number; matched: true; matchedLine: string; read: ReadResult }
  | { matcherId: number; matched: false };

interface Matcher {
  params: MatcherParams;
  /** Per-line test: RE2 for regexes, `includes` for substrings. */
  testLine(line: string): boolean;
  /** The pattern as it goes into the set. */
  setSource: string;
  matched: boolean;
}

interface Group {
  matchers: Matcher[];
  set: InstanceType<typeof RE2.Set> | undefined;
}

export interface MatchTarget {
  read(params: { source: MatcherParams['source']; lines: number; stripAnsi: boolean; paneUid: number }): ReadResult;
}

function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|\-\/]/g, '\\$&');
}

function windowKey(p: MatcherParams): string {
  return `${p.source}:${p.lines}:${p.stripAnsi ? 1 : 0}`;
}

/** The matchers of one pane, grouped by read window. */
export class PaneMatchers {
  private readonly groups = new Map<string, Group>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(params: MatcherParams): void {
    const { type, value } = params.pattern;
    const regex = type === 'regex' ? new RE2(value) : undefined;
    const matcher: Matcher = {
      params,
      testLine: regex ? (line) => regex.test(line) : (line) => line.includes(value),
      setSource: regex ? value : escapeLiteral(value),
      matched: false,
    };
    const key = windowKey(params);
    const group = this.groups.get(key) ?? { matchers: [], set: undefined };
    group.matchers.push(matcher);
    group.set = undefined;
    this.groups.set(key, group);
    this.count++;
  }

  remove(matcherId: number): boolean {
    for (const [key, group] of this.groups) {
      const at = group.matchers.findIndex((m) => m.params.matcherId === matcherId);
      if (at === -1) continue;
      group.matchers.splice(at, 1);
      group.set = undefined;
      if (group.matchers.length === 0) this.groups.delete(key);
      this.count--;
      return true;
    }
    return false;
  }

  /** Evaluates every matcher (or only `only`) against the pane's current text; returns the flips. */
  evaluate(target: MatchTarget, only?: number): MatchChange[] {
    const changes: MatchChange[] = [];
    for (const group of this.groups.values()) {
      const matchers = only === undefined ? group.matchers : group.matchers.filter((m) => m.params.matcherId === only);
      const first = matchers[0];
      if (!first) continue;
      const read = target.read(first.params);
      group.set ??= new RE2.Set(group.matchers.map((m) => m.setSource), 'm');
      const candidates = new Set(group.set.match(read.text));
      const lines = read.text.split('\n');
      for (const matcher of matchers) {
        const index = group.matchers.indexOf(matcher);
        const line = candidates.has(index) ? lines.find((l) => matcher.testLine(l)) : undefined;
        const matched = line !== undefined;
        if (matched === matcher.matched) continue;
        matcher.matched = matched;
        const matcherId = matcher.params.matcherId;
        changes.push(line === undefined ? { matcherId, matched: false } : { matcherId, matched: true, matchedLine: line, read });
      }
    }
    return changes;
  }
}
