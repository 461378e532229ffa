/**
 * `herdr hook <agent> <event>`: what the hooks `herdr integration install` writes run, with the
 * CLI's event payload (JSON) on stdin. It reports the event's meaning (integrations/hook-events.ts)
 * for the pane it runs in ($HERDR_PANE_ID), under the source `herdr:<agent>`, ordered by
 * $HERDR_HOOK_SEQ (when the event happened) or by its own clock. It prints nothing and always
 * exits 0: a hook must never fail its agent.
 */
import type { Command } from 'commander';
import { request } from '../../client/client.js';
import { dialerFor } from '../../client/transport.js';
import { INSTALLABLE_TARGETS, type InstallableTarget } from '../../protocol/integration-targets.js';
import { hookMeaning, sessionOf } from '../../integrations/hook-events.js';

/** A payload larger than this is not read whole (a transcript inlined by mistake). */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** A hook never keeps its agent (or itself) waiting longer. */
const GIVE_UP_MS = 3000;

function readPayload(): Promise<Record<string, unknown>> {
  if (process.stdin.isTTY) return Promise.resolve({});
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
      } catch {
        resolve({});
      }
    };
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', done);
    process.stdin.on('error', done);
  });
}

/** Nanoseconds since the epoch: later events have larger seqs, whichever hook process reports first. */
function seqOf(given: string | undefined): string {
  if (given !== undefined && /^\d{19}$/.test(given)) return given;
  return (BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)).toString();
}

async function report(agent: InstallableTarget, event: string): Promise<void> {
  const paneId = process.env.HERDR_PANE_ID;
  if (process.env.HERDR_ENV !== '1' || !paneId) return;
  const payload = await readPayload();
  const meaning = hookMeaning(agent, event, payload);
  if (!meaning) return;
  const session = sessionOf(payload);
  const sessionParams = { ...(session.id ? { agent_session_id: session.id } : {}), ...(session.path ? { agent_session_path: session.path } : {}) };
  const base = { pane_id: paneId, source: `herdr:${agent}`, agent, seq: BigInt(seqOf(process.env.HERDR_HOOK_SEQ)) };
  const dialer = dialerFor({});
  if (meaning.kind === 'release') await request('pane.release_agent', base, { dialer });
  else if (meaning.kind === 'session') {
    if (session.id || session.path) await request('pane.report_agent_session', { ...base, ...sessionParams, ...(typeof payload.source === 'string' ? { session_start_source: payload.source } : {}) }, { dialer });
  } else await request('pane.report_agent', { ...base, state: meaning.state, ...(meaning.message ? { message: meaning.message.slice(0, 500) } : {}), ...sessionParams }, { dialer });
}

export function addHookCommand(program: Command): void {
  program
    .command('hook')
    .argument('<agent>', INSTALLABLE_TARGETS.join(' | '))
    .argument('<event>', 'the CLI\'s hook event (SessionStart, Stop, …)')
    .description('what an agent\'s hook runs (herdr integration install writes them): reports its state and session; prints nothing, exits 0')
    .action(async (agent: string, event: string) => {
      setTimeout(() => process.exit(0), GIVE_UP_MS).unref();
      if ((INSTALLABLE_TARGETS as readonly string[]).includes(agent)) await report(agent as InstallableTarget, event).catch(() => undefined);
      process.exit(0);
    });
}
