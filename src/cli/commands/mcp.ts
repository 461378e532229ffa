/** `herdr mcp` (docs/mcp.md): wiring only; the server is src/mcp. */
import type { Command } from 'commander';
import { exitWith } from '../failure.js';
import { type FleetFlags, fleetOptions, fleetTargets } from './fleet-targets.js';

export function addMcpCommand(program: Command): void {
  fleetOptions(
    program.command('mcp').description('an MCP server on stdin/stdout: the fleet as tools for a coding agent (docs/mcp.md); --host as `herdr fleet`'),
  ).action(async (flags: FleetFlags) => {
    try {
      // Loaded here, not with the CLI: the MCP SDK is for this command only.
      const { serveStdio } = await import('../../mcp/server.js');
      await serveStdio({ targets: fleetTargets(flags) });
      process.exit(0);
    } catch (error) {
      exitWith(error);
    }
  });
}
