/**
 * herdr's methods for a screen herdr draws, and its live handoff (docs/protocol.md §5.5):
 * their params were checked by the router against herdr's shapes; each is then answered
 * `unsupported` with its reason. Nothing is done and nothing is pretended.
 */
import { ProtocolError } from '../../protocol/errors.js';
import { SCREEN_ONLY_METHOD_NAMES, SCREEN_ONLY_REASONS } from '../../protocol/screen-only.js';
import type { Router } from '../router.js';

export function registerScreenOnlyHandlers(router: Router): void {
  for (const method of SCREEN_ONLY_METHOD_NAMES) {
    router.register(method, () => {
      throw new ProtocolError('unsupported', `${method} is not supported: ${SCREEN_ONLY_REASONS[method]}`);
    });
  }
}
