/**
 * `events.wait` (docs/protocol.md §5): the first event after the request that matches.
 * It takes our event names and herdr's EventMatch kinds (protocol/event-wait.ts) in
 * either dialect; the answer follows the dialect: `event_matched` with the line as
 * subscribers get it (0.2.0), `wait_matched` with herdr's envelope (current).
 */
import { ProtocolError } from '../../protocol/errors.js';
import { type WaitMatchedEvent, herdrEnvelope, supportedWaitNames, waitedLine } from '../../protocol/event-wait.js';
import type { EventLine, TypedEventLine } from '../../protocol/events.js';
import { type MethodParams, WAITABLE_EVENTS } from '../../protocol/methods.js';
import type { EventHub, LoggedEvent } from '../event-hub.js';
import { currentViewOf } from '../ids.js';
import type { OpenCounts } from '../open-counts.js';
import type { Router } from '../router.js';
import { deadline, openWait } from '../waits/pending-wait.js';

type Match = MethodParams<'events.wait'>['match_event'];
const ID_FIELDS = ['pane_id', 'workspace_id', 'tab_id'] as const;
const VALUE_FIELDS = ['agent', 'state', 'agent_status', 'label'] as const;

/**
 * The values an event gives `field`, wherever its data keeps them (at its top, or in
 * its pane, workspace or tab), in both id forms: compact as written, stable as the
 * current dialect would show them.
 */
function idValues(line: EventLine, field: string, meta: LoggedEvent['meta']): Array<string | undefined> {
  const data = line.data as Record<string, unknown>;
  const holders = [data, data.pane, data.workspace, data.tab].filter((holder): holder is Record<string, unknown> => typeof holder === 'object' && holder !== null);
  const values = holders.flatMap((holder) => [holder[field], currentViewOf(holder)?.[field]]);
  if (field === 'pane_id') values.push(meta.paneStableId);
  if (field === 'workspace_id') values.push(meta.workspaceStableId);
  return values.filter((value): value is string => typeof value === 'string');
}

function matcher(want: Match, line: string): (event: LoggedEvent) => boolean {
  return ({ line: event, meta }) => {
    if (event.event !== line) return false;
    const data = event.data as Record<string, unknown>;
    return (
      ID_FIELDS.every((field) => want[field] === undefined || idValues(event, field, meta).includes(want[field])) &&
      VALUE_FIELDS.every((field) => want[field] === undefined || data[field] === want[field])
    );
  };
}

export function registerEventWaitHandler(router: Router, { events, open }: { events: EventHub; open: OpenCounts }): void {
  router.register('events.wait', (params, { connection, dialect }) => {
    const want = params.match_event;
    const line = waitedLine(want.event, WAITABLE_EVENTS);
    if (line === undefined) {
      throw new ProtocolError(
        'unsupported_event_wait_match',
        `herdr's ${want.event} has no event on this server; events.wait waits for: ${supportedWaitNames(WAITABLE_EVENTS).join(', ')}`,
      );
    }
    const matches = matcher(want, line);
    return new Promise((resolve, reject) => {
      const { finish, cleanups } = openWait(open, connection, reject);
      cleanups.push(
        events.listen((event) => {
          if (!matches(event)) return;
          // The line's data was built from the typed event tables (protocol/events.ts).
          const answer = dialect === 'current'
            ? { type: 'wait_matched' as const, event: herdrEnvelope(event.line) as WaitMatchedEvent }
            : { type: 'event_matched' as const, event: event.line as TypedEventLine };
          finish(() => resolve(answer));
        }),
      );
      cleanups.push(deadline(params.timeout_ms, () => finish(() => reject(new ProtocolError('timeout', 'timed out waiting for event')))));
    });
  });
}
