/** Method-table entries for the agent API (docs/protocol.md §12); spread into `METHODS` (methods.ts). */
import type { MethodEntry } from '../params.js';

export const AGENT_METHODS = {} as const satisfies Record<string, MethodEntry>;
