/** the agent API (agent.*) (docs/protocol.md §5). */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';

export function registerAgentHandlers(_router: Router, _core: ServerCore): void {}
