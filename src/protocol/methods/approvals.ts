/**
 * The approval inbox (docs/protocol.md §13.6): every blocked agent with the menu read off its
 * screen, and an answer typed only while the same question is still there. Spread into `METHODS`.
 */
import { z } from 'zod';
import { optional } from '../optional.js';
import { type MethodEntry, paneId, workspaceId } from '../params.js';

const option = z.object({
  key: z.string().describe('what picks it: its number (numbered menus) or its place from 1 (arrow-selected ones)'),
  label: z.string(),
});

export const approvalSchema = z.object({
  pane_id: z.string(),
  workspace_id: z.string(),
  stable_id: z.string(),
  agent: z.string().optional(),
  agent_instance_id: z.string().optional(),
  name: z.string().optional(),
  cwd: z.string().optional(),
  since: z.number().int().min(0).describe('when it turned blocked, ms since the Unix epoch'),
  question: z.string().optional().describe('the question on the screen above the menu, else what the agent reported'),
  menu: z.enum(['numbered', 'arrows', 'buttons', 'none']).describe('`buttons`: a row chosen with ←/→; `none`: no menu was found on the screen (answer it in the pane)'),
  options: z.array(option),
  selected: z.string().optional().describe('the option the menu\'s marker is on'),
  question_hash: z.string().describe('names this question and these options: approvals.answer types only while it still holds'),
});
export type Approval = z.output<typeof approvalSchema>;

export const APPROVAL_METHODS = {
  'approvals.list': {
    params: z.object({
      workspace_id: optional(workspaceId),
      agent: optional(z.string().describe('only this agent kind (claude, codex, …)')),
    }),
    result: z.object({ type: z.literal('approval_list'), approvals: z.array(approvalSchema) }),
    changesState: false,
  },
  'approvals.answer_matching': {
    params: z
      .object({
        option: optional(z.string().min(1).max(8).describe('the option\'s key to pick in each')),
        label: optional(z.string().min(1).max(200).describe('or the option whose label starts with this (case-insensitive): vendors word "yes" differently')),
        agent: optional(z.string().describe('only this agent kind')),
        workspace_id: optional(workspaceId),
        question: optional(z.string().max(500).describe('only questions holding this text (case-insensitive)')),
      })
      .refine((params) => (params.option === undefined) !== (params.label === undefined), 'give exactly one of option and label'),
    result: z.object({
      type: z.literal('approvals_answered'),
      answered: z.array(z.object({ pane_id: z.string(), stable_id: z.string(), option: z.string(), label: z.string(), keys: z.array(z.string()) })),
      skipped: z.array(z.object({ pane_id: z.string(), stable_id: z.string(), code: z.string(), message: z.string() })).describe('matched but not answered: no such option, or the question changed meanwhile'),
    }),
    changesState: true,
  },
  'approvals.answer': {
    params: z.object({
      pane_id: paneId,
      option: z.string().min(1).max(8).describe('an option\'s key from approvals.list'),
      question_hash: z.string().min(1).max(64),
    }),
    result: z.object({
      type: z.literal('approval_answered'),
      pane_id: z.string(),
      option: z.string(),
      label: z.string(),
      keys: z.array(z.string()).describe('what was typed'),
    }),
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
