/**
 * A prompt's turn (docs/protocol.md §13.7): the receipt `agent.prompt` answers with at
 * once, and what becomes of it, queued until the agent is ready, written, taken, worked
 * on and finished. One schema for the methods and the events.
 */
import { z } from 'zod';

export const TURN_STATES = ['queued', 'sent', 'started', 'finished', 'failed', 'cancelled'] as const;
export type TurnState = (typeof TURN_STATES)[number];

/** How a turn ended: the agent's status then, or why it never ran. */
export const TURN_OUTCOMES = ['idle', 'done', 'blocked', 'exited', 'stalled', 'cancelled'] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

export const turnInfoSchema = z.object({
  turn_id: z.string().describe('`t<N>`, never reused by this server'),
  pane_id: z.string(),
  workspace_id: z.string(),
  stable_id: z.string(),
  agent_instance_id: z.string().describe('the occupant it is for: never typed into a successor'),
  state: z.enum(TURN_STATES),
  outcome: z.enum(TURN_OUTCOMES).optional(),
  key: z.string().optional().describe('the client key it was given: a retry with it returns this turn'),
  text: z.string().describe('the prompt, its first 200 characters'),
  position: z.number().int().min(0).optional().describe('while queued: how many turns are ahead of it (0: next)'),
  created_at: z.number().int().min(0).describe('ms since the Unix epoch'),
  sent_at: z.number().int().min(0).optional().describe('when the server began to submit it (typing its text)'),
  echoed_at: z.number().int().min(0).optional().describe('when the typed text showed on the agent\'s screen'),
  accepted_at: z.number().int().min(0).optional().describe('when the agent took the prompt: its state moved, or its input box let go of the text'),
  enters: z.number().int().min(1).optional().describe('how many Enters it took: more than one when the agent lost the first and the text was still in its input box'),
  evidence: z.array(z.string()).optional().describe('for a `stalled` turn: the screen lines that show where the prompt was left'),
  started_at: z.number().int().min(0).optional(),
  finished_at: z.number().int().min(0).optional(),
  duration_ms: z.number().int().min(0).optional().describe('from the write to the end of the turn'),
});
export type TurnInfo = z.output<typeof turnInfoSchema>;

const turnRef = { pane_id: z.string(), workspace_id: z.string(), turn_id: z.string(), agent_instance_id: z.string() };

/** The turn events' data (subscribable per pane or fleet-wide, like `pane.command_finished`). */
export const TURN_EVENT_DATA = {
  'pane.prompt_queued': z.object({ ...turnRef, position: z.number().int().min(0).describe('how many turns are ahead of it') }).describe('the prompt waits for the agent (it is busy or blocked)'),
  'pane.prompt_accepted': z.object({ ...turnRef }).describe('the agent took the prompt: after Enter its state moved, or its input box let go of the text'),
  'pane.turn_started': z.object({ ...turnRef }),
  'pane.turn_finished': z.object({ ...turnRef, outcome: z.enum(TURN_OUTCOMES), duration_ms: z.number().int().min(0).optional() }),
} as const;
export type TurnEventName = keyof typeof TURN_EVENT_DATA;
export const TURN_EVENTS = Object.keys(TURN_EVENT_DATA) as TurnEventName[];
