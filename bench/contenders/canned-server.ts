/**
 * The ceiling for requests: a process that answers every request line on a
 * unix socket at once with a canned answer of its method (`pane.get`, `ping`,
 * `pane.report_agent`: the ones the bench asks it), doing nothing else.
 * The library against it costs what the socket, JSON and the client cost;
 * what herdr adds on top is the server's work. Run as
 * `node canned-server.js SOCKET`; prints "ready" once listening.
 */
import { createServer } from 'node:net';
import { lineReader } from '../../src/client/wire.js';

const PANE_INFO = {
  type: 'pane_info',
  pane: {
    pane_id: '1-1', workspace_id: '1', focused: true, cwd: '/tmp/herdr-bench', agent_state: 'unknown', agent_status: 'unknown', agent_state_since: 1_700_000_000_000,
    revision: 42, stable_id: 'w1:p1', cols: 120, rows: 40, pid: 4242,
  },
};
/** The client checks an answer against its method's result schema, so each method gets its own. */
const CANNED_RESULTS: Record<string, object> = {
  'pane.get': PANE_INFO,
  ping: { type: 'pong', version: 'canned' },
  'pane.report_agent': { type: 'ok' },
};

const socketPath = process.argv[2];
if (!socketPath) throw new Error('usage: canned-server.js SOCKET');
createServer((socket) => {
  socket.on('error', () => undefined);
  lineReader(socket, (line) => {
    const request = JSON.parse(line) as { id?: string; method?: string; keep_alive?: boolean };
    const result = CANNED_RESULTS[request.method ?? ''] ?? PANE_INFO;
    socket.write(`${JSON.stringify({ id: request.id, result })}\n`);
    if (request.keep_alive !== true) socket.end();
  });
}).listen(socketPath, () => console.log('ready'));
