/**
 * `integration.install|uninstall|list` (docs/protocol.md §13.9, herdr's current protocol; `list`
 * and `home` are ours): an agent CLI's hooks written so that it reports its state and session.
 * Spread into `METHODS`.
 */
import { z } from 'zod';
import { INTEGRATION_TARGETS, INSTALLABLE_TARGETS } from '../integration-targets.js';
import { optional } from '../optional.js';
import type { MethodEntry } from '../params.js';

const target = z.enum(INTEGRATION_TARGETS).describe('the agent CLI');
const home = optional(z.string().min(1).max(4096).describe('ext: install under this home instead of the server\'s (an agent\'s own HOME)'));
const details = z.object({ messages: z.array(z.string()).describe('what was written, removed or left as it was') });

export const integrationStatusSchema = z.object({
  target: z.enum(INSTALLABLE_TARGETS),
  installed: z.boolean(),
  version: z.number().int().optional().describe('the version of what is installed'),
  current_version: z.number().int().describe('the version this server writes: an older one is worth installing again'),
  files: z.array(z.string()).describe('the files it writes or edits'),
});

export const INTEGRATION_METHODS = {
  'integration.install': {
    params: z.object({ target, home }),
    result: z.object({ type: z.literal('integration_install'), target, details }),
    changesState: true,
  },
  'integration.uninstall': {
    params: z.object({ target, home }),
    result: z.object({ type: z.literal('integration_uninstall'), target, details }),
    changesState: true,
  },
  'integration.list': {
    params: z.object({ home }),
    result: z.object({ type: z.literal('integration_list'), integrations: z.array(integrationStatusSchema) }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
