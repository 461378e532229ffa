/**
 * The files `herdr integration install` writes for the CLIs: a hook script for those whose hooks
 * run commands (it runs `herdr hook <agent> <event>` in the background, so the CLI never waits on
 * herdr), a plugin for opencode and an extension for pi, which report over the socket themselves.
 * Each does nothing outside a herdr pane.
 */
import type { InstallableTarget } from '../protocol/integration-targets.js';

/** Bumped when what an integration writes changes: `herdr integration status` tells an old one. */
export const INTEGRATION_VERSION = 1;
export const HOOK_SCRIPT_NAME = 'herdr-agent-state.sh';

export function hookScript(agent: InstallableTarget): string {
  return `#!/bin/sh
# ${HOOK_SCRIPT_NAME}, written by \`herdr integration install ${agent}\` (version ${INTEGRATION_VERSION}): reports
# ${agent}'s state and session to the herdr server of the pane it runs in. Outside herdr it does nothing.
payload=$(cat)
[ "\${HERDR_ENV:-}" = 1 ] && [ -n "\${HERDR_BIN_PATH:-}" ] && [ -n "\${HERDR_PANE_ID:-}" ] || exit 0
# Ordered by when the event happened, not by when its report arrives.
seq=$(date +%s%N 2>/dev/null)
printf '%s' "$payload" | HERDR_HOOK_SEQ="$seq" "$HERDR_BIN_PATH" hook ${agent} "$1" >/dev/null 2>&1 &
exit 0
`;
}

/** A few lines that send one report over the socket (shared by the plugin and the extension below). */
const REPORTER = `const socketPath = process.env.HERDR_SOCKET_PATH;
const paneId = process.env.HERDR_PANE_ID;
const inHerdr = process.env.HERDR_ENV === '1' && !!socketPath && !!paneId;
let lastSeq = 0n;
function nextSeq() {
  const now = BigInt(Date.now()) * 1000000n;
  lastSeq = now > lastSeq ? now : lastSeq + 1n;
  return lastSeq;
}
function send(method, params) {
  if (!inHerdr) return;
  // The seq is a 64-bit number: written as digits, not through a double.
  const line = JSON.stringify({ id: 'herdr-integration', method, params: { pane_id: paneId, source: SOURCE, agent: AGENT, seq: '@SEQ@', ...params } }).replace('"@SEQ@"', nextSeq().toString());
  const socket = connect(socketPath);
  socket.on('error', () => undefined);
  socket.setTimeout(2000, () => socket.destroy());
  socket.on('data', () => socket.end());
  socket.write(line + '\\n');
}
const report = (state, message) => send('pane.report_agent', { state, ...(message ? { message } : {}) });
const session = (id, path) => send('pane.report_agent_session', { ...(id ? { agent_session_id: id } : {}), ...(path ? { agent_session_path: path } : {}) });
const release = () => send('pane.release_agent', {});`;

export const OPENCODE_PLUGIN_NAME = 'herdr-agent-state.js';

export const OPENCODE_PLUGIN = `// ${OPENCODE_PLUGIN_NAME}, written by \`herdr integration install opencode\` (version ${INTEGRATION_VERSION}): reports
// opencode's state and session to the herdr server of the pane it runs in. Outside herdr it does nothing.
import { connect } from 'node:net';

const SOURCE = 'herdr:opencode';
const AGENT = 'opencode';
${REPORTER}

export const HerdrAgentState = async () => ({
  event: async ({ event }) => {
    const properties = event.properties ?? {};
    switch (event.type) {
      case 'session.created':
        return session(properties.sessionID ?? properties.info?.id);
      case 'session.status':
        if (properties.status?.type === 'busy') return report('working');
        if (properties.status?.type === 'idle') return report('idle');
        return undefined;
      case 'permission.asked':
        return report('blocked', [properties.permission, ...(properties.patterns ?? [])].filter(Boolean).join(': '));
      case 'permission.replied':
        return report('working');
      case 'session.idle':
        return report('idle');
      default:
        return undefined;
    }
  },
});
`;

export const PI_EXTENSION_NAME = 'herdr-agent-state.ts';

export const PI_EXTENSION = `// ${PI_EXTENSION_NAME}, written by \`herdr integration install pi\` (version ${INTEGRATION_VERSION}): reports
// pi's state and session to the herdr server of the pane it runs in. Outside herdr it does nothing.
import { connect } from 'node:net';

const SOURCE = 'herdr:pi';
const AGENT = 'pi';
${REPORTER}

export default function (pi) {
  pi.on('session_start', (_event, ctx) => session(ctx.sessionManager?.getSessionId?.(), ctx.sessionManager?.getSessionFile?.()));
  pi.on('agent_start', () => report('working'));
  pi.on('agent_end', () => report('idle'));
  pi.on('session_shutdown', () => release());
}
`;
