/**
 * `herdr status [server|client] [--json]` (docs/protocol.md §11.3): pings the server and
 * says whether it runs, what it is, and whether it answers in the protocol this CLI expects
 * on that socket. The JSON has the keys herdr's current CLI prints that we can fill
 * honestly; a server that is not running is a status, not a failure (exit 0, as herdr).
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { request } from '../../client/client.js';
import { ConnectionError, successOrThrow } from '../../client/errors.js';
import { BASE_PROTOCOL, CURRENT_PROTOCOL } from '../../protocol/dialect.js';
import { resolveSocketPath } from '../../protocol/socket-path.js';
import { VERSION } from '../../protocol/version.js';
import { exitWith, fail } from '../failure.js';
import { type SocketOption, printJson, targetOf } from '../output.js';
import { oneOf } from './parse.js';

type Scope = 'server' | 'client';

interface ClientStatus {
  version: string;
  protocol: number;
  binary: string;
}

interface ServerStatus {
  status: 'running' | 'not_running';
  running: boolean;
  version: string | null;
  protocol: number | null;
  capabilities: Record<string, unknown> | null;
  compatible: boolean | null;
  /** The socket asked; null for a server on another host (see `host`). */
  socket: string | null;
  host?: string;
  /** EXT: the dialect the server says it answers this socket in (docs/protocol.md §15). */
  dialect?: string;
}

/**
 * The protocol this CLI expects where it connects: a server's second socket
 * (`…-current.sock`) answers in herdr's current protocol, any other socket in herdr
 * 0.2.0's (which had no number: 0). The CLI itself passes either dialect's answers on.
 */
export function expectedProtocol(socketPath: string | undefined): number {
  return socketPath !== undefined && basename(socketPath).endsWith('-current.sock') ? CURRENT_PROTOCOL : BASE_PROTOCOL;
}

/** A connection refused or a socket that is not there: no server runs (anything else is a failure). */
function notRunning(error: unknown): boolean {
  const code = error instanceof ConnectionError ? (error.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  return code === 'ENOENT' || code === 'ECONNREFUSED';
}

async function serverStatus(flags: SocketOption, expected: number): Promise<ServerStatus> {
  const dialer = targetOf(flags);
  const where = dialer.host === undefined ? { socket: flags.socket ?? resolveSocketPath() } : { socket: null, host: dialer.host };
  let result: Record<string, unknown>;
  try {
    result = successOrThrow(await request('ping', {}, { id: 'cli:status', dialer })).result as Record<string, unknown>;
  } catch (error) {
    if (notRunning(error)) {
      return { status: 'not_running', running: false, version: null, protocol: null, capabilities: null, compatible: null, ...where };
    }
    exitWith(error);
  }
  if (result.type !== 'pong') fail(`${dialer.where} answered ping with ${String(result.type)}, not pong`);
  const protocol = typeof result.protocol === 'number' ? result.protocol : null;
  return {
    status: 'running',
    running: true,
    version: typeof result.version === 'string' ? result.version : null,
    protocol,
    capabilities: typeof result.capabilities === 'object' && result.capabilities !== null ? (result.capabilities as Record<string, unknown>) : null,
    // No number (an older server) leaves it unknown, as herdr does.
    compatible: protocol === null ? null : protocol === expected,
    ...where,
    ...(typeof result.dialect === 'string' ? { dialect: result.dialect } : {}),
  };
}

const dialectName = (protocol: number) => (protocol === BASE_PROTOCOL ? "herdr 0.2.0's" : "herdr's current");

function clientLines(client: ClientStatus): string[] {
  return [`version: ${client.version}`, `protocol: ${client.protocol} (${dialectName(client.protocol)})`, `binary: ${client.binary}`];
}

function serverLines(server: ServerStatus): string[] {
  const at = server.host === undefined ? `socket: ${server.socket ?? ''}` : `host: ${server.host}`;
  if (!server.running) return ['status: not running', at];
  const compatible = server.compatible === null ? 'unknown' : server.compatible ? 'yes' : 'no';
  return ['status: running', `version: ${server.version ?? 'unknown'}`, `protocol: ${server.protocol ?? 'unknown'}`, `compatible: ${compatible}`, at];
}

export function addStatusCommand(program: Command): void {
  program
    .command('status')
    .argument('[scope]', 'server | client (default: both)', oneOf<Scope>('server', 'client'))
    .description('show this CLI and whether a server runs at the socket, its version and protocol (exit 0 either way)')
    .option('--json', 'print JSON')
    .option('--socket <path>', 'socket path')
    .action(async (scope: Scope | undefined, flags: SocketOption & { json?: boolean }) => {
      const client: ClientStatus = {
        version: VERSION,
        protocol: expectedProtocol(flags.host || process.env.HERDR_HOST ? undefined : (flags.socket ?? resolveSocketPath())),
        binary: process.argv[1] ?? '',
      };
      const server = scope === 'client' ? undefined : await serverStatus(flags, client.protocol);
      if (flags.json) {
        printJson(scope === 'client' ? client : scope === 'server' ? server : { client, server });
        return;
      }
      const text =
        scope === 'client'
          ? clientLines(client)
          : scope === 'server'
            ? serverLines(server as ServerStatus)
            : ['client:', ...clientLines(client).map((l) => `  ${l}`), 'server:', ...serverLines(server as ServerStatus).map((l) => `  ${l}`)];
      process.stdout.write(`${text.join('\n')}\n`);
    });
}
