/**
 * `herdr agent prompt … --wait`: a wait that never hangs silently (docs/protocol.md §11).
 * A prompt for an agent that is blocked on a question cannot start until somebody answers:
 * that is said at once on stderr, and the command ends unless `--keep-waiting`. While it
 * waits, a terminal on stderr shows a one-line status (the agent's state, the turn's place,
 * the time waited), a pipe nothing; an agent that turns blocked ahead of the turn is said
 * once. Ctrl-C leaves the turn as the user chose: taken back with `--cancel-on-interrupt`
 * (when still queued), else kept, with the command that takes it back.
 */
import { randomBytes } from 'node:crypto';
import { HerdrClient } from '../client/client.js';
import type { Dialer } from '../client/transport.js';
import type { AgentInfo, AgentStatus } from '../protocol/objects.js';
import { EXIT } from './exit-codes.js';
import { exitWith } from './failure.js';
import { promptWaited } from './human/agents.js';
import { printJson } from './output.js';
import { personReadsStdout } from './reader.js';

export interface PromptWait {
  target: string;
  text: string;
  until: AgentStatus[] | undefined;
  timeoutMs: number | undefined;
  stallMs: number | undefined;
  key: string | undefined;
  keepWaiting: boolean;
  cancelOnInterrupt: boolean;
}

/** How often the status line is drawn again, and the agent looked at. */
const STATUS_EVERY_MS = 1000;

export async function promptAndWait(dialer: Dialer, options: PromptWait): Promise<void> {
  const client = new HerdrClient({ dialer });
  const looker = new HerdrClient({ dialer });
  // Ours, when the caller gave none: the same prompt sent again with it names this turn (and types nothing).
  const key = options.key ?? `cli-${randomBytes(8).toString('hex')}`;
  const prompt = { target: options.target, text: options.text, key, ...(options.stallMs === undefined ? {} : { stall_ms: options.stallMs }) };
  const status = new StatusLine(process.stderr.isTTY === true);
  try {
    const before = (await client.call('agent.get', { target: options.target })).agent;
    if (before.agent_status === 'blocked' && !options.keepWaiting) {
      blockedAhead(before, false);
      process.exit(EXIT.failure);
    }
    const began = Date.now();
    let saidBlocked = false;
    const onInterrupt = () => void interrupted(looker, prompt, options.cancelOnInterrupt, status);
    process.once('SIGINT', onInterrupt);
    const ticker = setInterval(() => {
      void looker.call('agent.queue.list', { target: options.target }).then(
        async ({ turns }) => {
          const agent = (await looker.call('agent.get', { target: options.target })).agent;
          const ahead = turns.findIndex((turn) => turn.key === key);
          if (ahead >= 0 && agent.agent_status === 'blocked' && !saidBlocked) {
            saidBlocked = true;
            status.clear();
            blockedAhead(agent, true);
            if (!options.keepWaiting) process.exit(EXIT.failure);
          }
          const place = ahead >= 0 ? `queued, ${ahead} ahead` : 'its turn';
          status.show(`${agent.name ?? agent.pane_id}: ${agent.agent_status} · ${place} · ${Math.round((Date.now() - began) / 1000)} s`);
        },
        () => undefined,
      );
    }, STATUS_EVERY_MS);
    const wait = { ...(options.until === undefined ? {} : { until: options.until }), ...(options.timeoutMs === undefined ? {} : { timeout_ms: options.timeoutMs }) };
    try {
      const result = await client.call('agent.prompt', { ...prompt, wait });
      status.clear();
      if (personReadsStdout()) process.stdout.write(promptWaited(result));
      else printJson({ id: 'cli:agent:prompt', result });
    } finally {
      clearInterval(ticker);
      process.off('SIGINT', onInterrupt);
    }
  } catch (error) {
    status.clear();
    exitWith(error);
  } finally {
    client.close();
    looker.close();
  }
}

function blockedAhead(agent: AgentInfo, queued: boolean): void {
  const question = agent.agent_message ? ` ("${agent.agent_message}")` : '';
  const what = queued ? 'the prompt is queued behind a question' : 'the agent waits for an answer to a question';
  const then = queued ? 'it is written once the question is answered' : 'nothing was sent (--keep-waiting queues it and waits)';
  process.stderr.write(`herdr: ${what} in pane ${agent.terminal_id}${question}: answer it with \`herdr inbox\`; ${then}\n`);
}

/** Ctrl-C: the turn is taken back (asked for, and still queued) or kept, and the user is told which. */
async function interrupted(client: HerdrClient, prompt: { target: string; text: string; key: string }, cancel: boolean, status: StatusLine): Promise<void> {
  status.clear();
  try {
    // The same key answers the same turn and types nothing.
    const { turn } = await client.call('agent.prompt', prompt);
    if (cancel && turn.state === 'queued') {
      await client.call('agent.queue.cancel', { turn_id: turn.turn_id });
      process.stderr.write(`herdr: interrupted; the prompt (turn ${turn.turn_id}) was taken back before it was written\n`);
    } else if (turn.state === 'queued') {
      process.stderr.write(`herdr: interrupted; the prompt stays queued as turn ${turn.turn_id}: \`herdr agent cancel ${turn.turn_id}\` takes it back\n`);
    } else {
      process.stderr.write(`herdr: interrupted; the prompt was written (turn ${turn.turn_id}, ${turn.state}): \`herdr agent turn ${turn.turn_id}\` shows how it ends\n`);
    }
  } catch {
    process.stderr.write('herdr: interrupted\n');
  }
  process.exit(130);
}

/** A one-line status on a terminal, drawn over itself; nothing at all on a pipe. */
class StatusLine {
  private shown = false;

  constructor(private readonly terminal: boolean) {}

  show(text: string): void {
    if (!this.terminal) return;
    const width = process.stderr.columns ?? 80;
    process.stderr.write(`\r\x1b[K${[...text].slice(0, Math.max(1, width - 1)).join('')}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
