/** pane.process_info, pane.rename and reported metadata (docs/protocol.md §5). */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';

export function registerPaneDetailHandlers(_router: Router, _core: ServerCore): void {}
