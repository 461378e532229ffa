/** Method-table entries for pane process info, labels and reported metadata; spread into `METHODS` (methods.ts). */
import type { MethodEntry } from '../params.js';

export const PANE_DETAIL_METHODS = {} as const satisfies Record<string, MethodEntry>;
