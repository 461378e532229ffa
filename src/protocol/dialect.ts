/**
 * The two dialects one server speaks (docs/protocol.md §15): herdr 0.2.0's, which is
 * this contract's base, and herdr's current protocol, which today's typed SDKs, dashboards
 * and CLI wrappers were written for. They differ only where the two releases answer the
 * same request differently: the id form in answers and events, `ping`'s protocol number,
 * and a few result types. herdr's wire has no way for a client to say which it speaks, so
 * the socket a client connects to decides, and a request may also say so itself with the
 * envelope's `protocol` key.
 */
export const DIALECTS = ['0.2.0', 'current'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** herdr's protocol number whose shapes the current dialect follows (herdr 0.9's). */
export const CURRENT_PROTOCOL = 22;
/** The protocol numbers of herdr releases whose JSON shapes the current dialect serves (0.8.2 is 20). */
export const CURRENT_PROTOCOLS: readonly number[] = [20, 21, 22];
/** What `ping` says in the 0.2.0 dialect: herdr 0.2.0 had no number, so a current client's exact check fails at once. */
export const BASE_PROTOCOL = 0;

/** The dialect a declared `protocol` asks for, or undefined when we do not speak that number. */
export function dialectOfProtocol(protocol: number): Dialect | undefined {
  if (protocol === BASE_PROTOCOL) return '0.2.0';
  return CURRENT_PROTOCOLS.includes(protocol) ? 'current' : undefined;
}

export function protocolOfDialect(dialect: Dialect): number {
  return dialect === 'current' ? CURRENT_PROTOCOL : BASE_PROTOCOL;
}

/**
 * herdr's `capabilities` keys, answered honestly: this server has no live handoff, does
 * not detach itself, and has none of herdr's client-shell endpoint (so no
 * `endpoint_protocol_generation`). EXT: a flag, false, for each thing herdr does on the
 * screen it draws that this server answers `unsupported` (screen-only.ts). Flags only: a
 * client may read the map as names to booleans.
 */
export const SERVER_CAPABILITIES = {
  live_handoff: false,
  detached_server_daemon: false,
  surface_interest: false,
  health_check: false,
  client_window_title: false,
  popups: false,
  agent_view: false,
  pane_graphics: false,
} as const satisfies Record<string, boolean>;
