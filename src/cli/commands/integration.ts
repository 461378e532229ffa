/**
 * `herdr integration install|uninstall|status [<agent>]` (herdr's grammar; docs/agents.md
 * "Integrations"): through the server (`integration.*`), or, when none runs, right here with the
 * same code: the files are the user's either way.
 */
import type { Command } from 'commander';
import { ConnectionError } from '../../client/errors.js';
import { INSTALLABLE_TARGETS, INTEGRATION_TARGETS } from '../../protocol/integration-targets.js';
import { CURRENT_INTEGRATION_VERSION, installIntegration, integrationStatus, serverPlace, uninstallIntegration } from '../../integrations/integrations.js';
import { request } from '../../client/client.js';
import { successOrThrow } from '../../client/errors.js';
import { exitWith } from '../failure.js';
import { type SocketOption, printJson, targetOf } from '../output.js';
import { alignedTable } from '../table.js';
import { oneOf } from './parse.js';

interface IntegrationFlags extends SocketOption {
  home?: string;
  json?: boolean;
}

/** herdr writes `antigravity-cli` on its command line and `antigravity_cli` on the wire. */
const wireTarget = (agent: string) => agent.replace(/-/g, '_');
const TARGET_NAMES = INTEGRATION_TARGETS.map((target) => target.replace(/_/g, '-'));

/** The server's answer, or undefined when no server answers (then the work is done here). */
async function askServer(method: 'integration.install' | 'integration.uninstall' | 'integration.list', params: Record<string, unknown>, flags: IntegrationFlags): Promise<Record<string, unknown> | undefined> {
  try {
    const response = successOrThrow(await request(method, params, { id: `cli:${method}`, dialer: targetOf(flags, params) }));
    return response.result as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ConnectionError && flags.host === undefined) return undefined;
    exitWith(error, 'message');
  }
}

function printMessages(result: Record<string, unknown>, flags: IntegrationFlags): void {
  if (flags.json || !process.stdout.isTTY) return printJson(result);
  for (const message of ((result.details as { messages?: string[] } | undefined)?.messages ?? [])) process.stdout.write(`${message}\n`);
}

export function addIntegrationCommands(program: Command): void {
  const integration = program.command('integration').description('write an agent CLI\'s hooks so it reports its state and session to herdr');
  const withFlags = (command: Command) =>
    command
      .option('--home <dir>', 'install under this home instead of the server\'s (an agent\'s own HOME)')
      .option('--json', 'print the answer as JSON')
      .option('--socket <path>', 'socket path');

  for (const verb of ['install', 'uninstall'] as const) {
    withFlags(
      integration
        .command(verb)
        .argument('<agent>', TARGET_NAMES.join(' | '), oneOf<string>(...TARGET_NAMES))
        .description(verb === 'install' ? 'write its hooks (idempotent; each file edited is backed up first)' : 'take herdr\'s hooks out again (the user\'s own are kept)'),
    ).action(async (agent: string, flags: IntegrationFlags) => {
      const target = wireTarget(agent);
      const params = { target, ...(flags.home ? { home: flags.home } : {}) };
      const answered = await askServer(`integration.${verb}`, params, flags);
      if (answered) return printMessages(answered, flags);
      try {
        const messages = verb === 'install' ? installIntegration(target, serverPlace(flags.home)) : uninstallIntegration(target, serverPlace(flags.home));
        printMessages({ type: `integration_${verb}`, target, details: { messages } }, flags);
      } catch (error) {
        exitWith(error);
      }
    });
  }

  withFlags(
    integration
      .command('status')
      .argument('[agent]', INSTALLABLE_TARGETS.join(' | '), oneOf<string>(...INSTALLABLE_TARGETS))
      .description('which integrations are installed, and whether they are current'),
  ).action(async (agent: string | undefined, flags: IntegrationFlags) => {
    const params = flags.home ? { home: flags.home } : {};
    const answered = (await askServer('integration.list', params, flags)) ?? {
      type: 'integration_list',
      integrations: INSTALLABLE_TARGETS.map((target) => ({ ...integrationStatus(target, serverPlace(flags.home)), current_version: CURRENT_INTEGRATION_VERSION })),
    };
    const all = (answered.integrations as Array<{ target: string; installed: boolean; version?: number; current_version: number; files: string[] }>).filter((entry) => agent === undefined || entry.target === agent);
    if (flags.json || !process.stdout.isTTY) return printJson({ ...answered, integrations: all });
    const rows = all.map((entry) => [
      entry.target,
      entry.installed ? (entry.version !== undefined && entry.version < entry.current_version ? `old (v${entry.version})` : 'installed') : 'not installed',
      entry.files.join(' '),
    ]);
    process.stdout.write(alignedTable(['AGENT', 'STATUS', 'FILES'], rows));
  });
}
