/** `herdr mcp` (docs/mcp.md): wiring only; the server is src/mcp. */
import type { Command } from 'commander';
import { dialerFor } from '../../client/transport.js';
import { exitWith } from '../failure.js';
import type { SocketOption } from '../output.js';

export function addMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('an MCP server on stdin/stdout: the fleet as tools for a coding agent (docs/mcp.md)')
    .option('--socket <path>', 'socket path')
    .action(async (flags: SocketOption) => {
      try {
        // Loaded here, not with the CLI: the MCP SDK is for this command only.
        const { serveStdio } = await import('../../mcp/server.js');
        const host = flags.host ?? process.env.HERDR_HOST;
        const sshCommand = flags.sshCommand ?? process.env.HERDR_SSH_COMMAND;
        await serveStdio({
          dialer: dialerFor({ ...(flags.socket ? { socketPath: flags.socket } : {}), ...(host ? { host } : {}), ...(sshCommand ? { sshCommand } : {}) }),
        });
        process.exit(0);
      } catch (error) {
        exitWith(error);
      }
    });
}
