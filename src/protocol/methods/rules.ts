/** Method-table entries for event rules (docs/protocol.md §13.8); spread into `METHODS`. */
import { z } from 'zod';
import { type MethodEntry, empty } from '../params.js';
import { ruleInfoSchema, ruleSpecSchema } from '../rules.js';

const ruleResult = z.object({ type: z.literal('rule_info'), rule: ruleInfoSchema });

export const RULE_METHODS = {
  'rules.add': {
    params: ruleSpecSchema,
    result: ruleResult,
    changesState: true,
  },
  'rules.list': {
    params: empty,
    result: z.object({ type: z.literal('rule_list'), rules: z.array(ruleInfoSchema) }),
    changesState: false,
  },
  'rules.remove': {
    params: z.object({ rule_id: z.string().describe('its id or its name') }),
    result: ruleResult,
    changesState: true,
  },
} as const satisfies Record<string, MethodEntry>;
