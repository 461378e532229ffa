/**
 * `herdr server agent-manifests`, `reload-agent-manifests` and `reload-config` (herdr's
 * current CLI; docs/protocol.md §10.8): what the running server reads from the user's
 * configuration directory, and reading it again.
 */
import type { Command } from 'commander';
import type { MethodResults } from '../../protocol/methods.js';
import { type SocketOption, send, shown } from '../output.js';
import { alignedTable } from '../table.js';

type Manifests = MethodResults['server.agent_manifests']['manifests'];

/** The manifests in use as a person reads them: one row an agent, then what is not in use and why. */
function manifestTable(manifests: Manifests, directory: string | undefined): string {
  const rows = manifests.filter((info) => info.rules > 0).map((info) => [info.agent, info.source_kind, info.active_version ?? '', String(info.rules), info.source]);
  const warnings = manifests.flatMap((info) => (info.warning === undefined ? [] : [`warning: ${info.warning}\n`]));
  const where = directory === undefined ? 'no manifest directory is read (--no-agent-manifests)\n' : `manifests are read from ${directory}\n`;
  return alignedTable(['AGENT', 'KIND', 'VERSION', 'RULES', 'SOURCE'], rows) + warnings.join('') + where;
}

export function addServerConfigCommands(server: Command): void {
  server
    .command('agent-manifests')
    .description('the agent detection rules in use: the built-in ones and your manifests (<agent>.toml), with any that are not in use and why')
    .option('--json', 'print the answer as JSON')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) =>
      send('cli:server:agent-manifests', 'server.agent_manifests', {}, flags, shown((result) => manifestTable(result.manifests, result.directory))),
    );

  server
    .command('reload-agent-manifests')
    .description('read the agent detection manifests again and use them at once, without a restart (all or none: a bad file is named and nothing changes)')
    .option('--json', 'print the answer as JSON')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) =>
      send('cli:server:reload-agent-manifests', 'server.reload_agent_manifests', {}, flags, shown((result) => {
        const yours = result.manifests.filter((info) => info.source_kind !== 'bundled');
        const list = yours.map((info) => `  ${info.agent}: ${info.source}\n`).join('');
        return `agent manifests reloaded: ${yours.length === 0 ? 'none of yours, the built-in rules only' : `${yours.length} of yours in use`}\n${list}`;
      })),
    );

  server
    .command('reload-config')
    .description("read the server's configuration again; says what could not be applied")
    .option('--json', 'print the answer as JSON')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) =>
      // herdr's exit code: 0 for any answer, whatever its status says.
      send('cli:server:reload-config', 'server.reload_config', {}, flags, shown((result) => `config reload: ${result.status}\n${result.diagnostics.map((line) => `  ${line}\n`).join('')}`)),
    );
}
