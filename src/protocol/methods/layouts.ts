/** Method-table entries for layouts as data and session.snapshot; spread into `METHODS` (methods.ts). */
import type { MethodEntry } from '../params.js';

export const LAYOUT_METHODS = {} as const satisfies Record<string, MethodEntry>;
