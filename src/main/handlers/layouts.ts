/** layout.export, layout.apply and session.snapshot (docs/protocol.md §5). */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';

export function registerLayoutHandlers(_router: Router, _core: ServerCore): void {}
