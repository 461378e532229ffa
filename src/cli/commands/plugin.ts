/**
 * `herdr plugin …` (herdr's grammar; docs/protocol.md §16): link, list, enable, disable and
 * unlink plugins, list and invoke their actions, open, focus and close their panes, read
 * their log, each through the server's `plugin.*` methods. For a person at a terminal a
 * table or a sentence; for a program, or with --json, the server's answer whole.
 */
import { resolve } from 'node:path';
import { homedir } from 'node:os';
import { type Command, InvalidArgumentError } from 'commander';
import type { MethodResults } from '../../protocol/methods.js';
import { PLUGIN_PANE_PLACEMENTS } from '../../protocol/plugins.js';
import { type SocketOption, given, send, shown } from '../output.js';
import { alignedTable } from '../table.js';
import { envAssignment, nonNegativeInt, oneOf } from './parse.js';

type Plugin = MethodResults['plugin.list']['plugins'][number];

/** A popup size as herdr's CLI takes it: cells, or a percentage such as `80%`. */
function popupSize(value: string): number | string {
  if (/^(100|[1-9][0-9]?)%$/.test(value)) return value;
  if (/^\d+$/.test(value) && Number(value) <= 65535) return Number(value);
  throw new InvalidArgumentError(`expected a number of cells or a percentage such as 80%, got ${value}`);
}

/** herdr spells zoomed also `fullscreen` on its command line. */
const placement = oneOf(...PLUGIN_PANE_PLACEMENTS, 'fullscreen');

/** `~` and relative paths as the person typing meant them. */
function pathArgument(path: string): string {
  return resolve(path === '~' || path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path);
}

const pluginLine = (plugin: Plugin) => `${plugin.plugin_id} ${plugin.version} (${plugin.enabled ? 'enabled' : 'disabled'}) at ${plugin.plugin_root}\n`;

function pluginTable({ plugins }: MethodResults['plugin.list']): string {
  if (plugins.length === 0) return 'no plugins linked\n';
  const rows = plugins.map((p) => [p.plugin_id, p.version, p.enabled ? 'enabled' : 'disabled', String(p.actions?.length ?? 0), String(p.panes?.length ?? 0), p.plugin_root]);
  const warnings = plugins.flatMap((p) => (p.warnings ?? []).map((warning) => `${p.plugin_id}: ${warning}\n`));
  return alignedTable(['PLUGIN', 'VERSION', 'STATE', 'ACTIONS', 'PANES', 'ROOT'], rows) + warnings.join('');
}

function actionTable({ actions }: MethodResults['plugin.action.list']): string {
  if (actions.length === 0) return 'no actions\n';
  return alignedTable(['ACTION', 'TITLE', 'COMMAND'], actions.map((a) => [`${a.plugin_id}.${a.action_id}`, a.title, a.command.join(' ')]));
}

function logTable({ logs }: MethodResults['plugin.log.list']): string {
  if (logs.length === 0) return 'no plugin commands have run\n';
  const rows = logs.map((l) => [l.log_id, l.plugin_id, l.action_id ?? l.event ?? '', l.status, l.exit_code === undefined ? '' : String(l.exit_code), l.error ?? (l.stderr ?? '').trim().split('\n').at(-1) ?? '']);
  return alignedTable(['LOG', 'PLUGIN', 'RAN', 'STATUS', 'EXIT', 'LAST WORDS'], rows);
}

interface PaneOpenFlags extends SocketOption {
  plugin: string;
  entrypoint: string;
  placement?: (typeof PLUGIN_PANE_PLACEMENTS)[number] | 'fullscreen';
  width?: number | string;
  height?: number | string;
  workspace?: string;
  targetPane?: string;
  direction?: 'right' | 'down';
  cwd?: string;
  env?: Record<string, string>;
  focus?: boolean;
}

export function addPluginCommands(program: Command): void {
  const plugin = program.command('plugin').description('herdr plugins: link a plugin directory, run its actions, open its panes');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(
    plugin
      .command('link')
      .argument('<path>', 'the plugin\'s directory (with its herdr-plugin.toml)')
      .option('--disabled', 'link it disabled')
      .option('--enabled', 'link it enabled (the default)')
      .description('link a local plugin (its manifest is checked; nothing runs)'),
  ).action((path: string, flags: SocketOption & { disabled?: boolean }) =>
    send('cli:plugin:link', 'plugin.link', { path: pathArgument(path), enabled: flags.disabled !== true }, flags, shown(({ plugin: p }) => `linked ${pluginLine(p)}`)),
  );

  socket(plugin.command('list').option('--plugin <id>', 'only this plugin').description('list linked plugins')).action((flags: SocketOption & { plugin?: string }) =>
    send('cli:plugin:list', 'plugin.list', { ...given('plugin_id', flags.plugin) }, flags, shown(pluginTable)),
  );

  socket(plugin.command('unlink').argument('<plugin_id>').description('unlink a plugin (its files are left alone)')).action((id: string, flags: SocketOption) =>
    send('cli:plugin:unlink', 'plugin.unlink', { plugin_id: id }, flags, shown((r) => (r.removed ? `unlinked ${r.plugin_id}\n` : `no plugin ${r.plugin_id} was linked\n`))),
  );

  for (const verb of ['enable', 'disable'] as const) {
    socket(plugin.command(verb).argument('<plugin_id>').description(`${verb} a linked plugin`)).action((id: string, flags: SocketOption) =>
      send(`cli:plugin:${verb}`, `plugin.${verb}`, { plugin_id: id }, flags, shown(({ plugin: p }) => `${verb}d ${p.plugin_id}\n`)),
    );
  }

  const action = plugin.command('action').description('list and invoke plugin actions');
  socket(action.command('list').option('--plugin <id>', 'only this plugin\'s').description('list the actions of linked plugins')).action((flags: SocketOption & { plugin?: string }) =>
    send('cli:plugin:action:list', 'plugin.action.list', { ...given('plugin_id', flags.plugin) }, flags, shown(actionTable)),
  );
  socket(
    action
      .command('invoke')
      .argument('<action_id>', 'the action\'s id, or <plugin_id>.<action_id>')
      .option('--plugin <id>', 'the plugin that declares it')
      .description('run an action (answers at once; `plugin log list` says how it ended)'),
  ).action((id: string, flags: SocketOption & { plugin?: string }) =>
    send(
      'cli:plugin:action:invoke',
      'plugin.action.invoke',
      { action_id: id, ...given('plugin_id', flags.plugin), context: { invocation_source: 'cli' } },
      flags,
      shown(({ action: a, log }) => `started ${a.plugin_id}.${a.action_id} (${log.log_id})\n`),
    ),
  );

  const pane = plugin.command('pane').description('open, focus and close plugin panes');
  socket(
    pane
      .command('open')
      .requiredOption('--plugin <id>', 'the plugin')
      .requiredOption('--entrypoint <id>', 'its [[panes]] id')
      .option('--placement <placement>', `${PLUGIN_PANE_PLACEMENTS.join(' | ')} (default: the manifest's)`, placement)
      .option('--width <size>', 'popup width: cells or a percentage', popupSize)
      .option('--height <size>', 'popup height: cells or a percentage', popupSize)
      .option('--workspace <id>', 'tab placement: the workspace')
      .option('--target-pane <id>', 'split placement: the pane to split')
      .option('--direction <direction>', 'right | down', oneOf('right', 'down'))
      .option('--cwd <path>', 'its directory (default: the plugin\'s)')
      .option('--env <KEY=VALUE>', 'environment of its pane (repeatable)', envAssignment)
      .option('--focus', 'focus it')
      .option('--no-focus', 'leave the focus where it is (the default)')
      .description('open a plugin\'s pane (a real pane running its command)'),
  ).action((flags: PaneOpenFlags) =>
    send(
      'cli:plugin:pane:open',
      'plugin.pane.open',
      {
        plugin_id: flags.plugin,
        entrypoint: flags.entrypoint,
        ...given('placement', flags.placement === 'fullscreen' ? 'zoomed' : flags.placement),
        ...given('width', flags.width),
        ...given('height', flags.height),
        ...given('workspace_id', flags.workspace),
        ...given('target_pane_id', flags.targetPane),
        ...given('direction', flags.direction),
        ...given('cwd', flags.cwd === undefined ? undefined : resolve(flags.cwd)),
        ...given('env', flags.env),
        focus: flags.focus === true,
      },
      flags,
      shown(({ plugin_pane: p }) => `opened ${p.plugin_id}'s ${p.entrypoint} in pane ${p.pane.stable_id}\n`),
    ),
  );
  socket(pane.command('focus').argument('<pane_id>').description('focus a plugin\'s pane')).action((id: string, flags: SocketOption) =>
    send('cli:plugin:pane:focus', 'plugin.pane.focus', { pane_id: id }, flags, shown(({ plugin_pane: p }) => `focused pane ${p.pane.stable_id}\n`)),
  );
  socket(pane.command('close').argument('<pane_id>').description('close a plugin\'s pane')).action((id: string, flags: SocketOption) =>
    send('cli:plugin:pane:close', 'plugin.pane.close', { pane_id: id }, flags, shown((r) => `closed pane ${r.pane_id}\n`)),
  );

  const log = plugin.command('log').alias('logs').description('the runs of plugin commands');
  socket(
    log
      .command('list')
      .option('--plugin <id>', 'only this plugin\'s')
      .option('--limit <n>', 'the newest n (default 50, at most 200)', nonNegativeInt)
      .description('list the latest runs: status, exit code, output'),
  ).action((flags: SocketOption & { plugin?: string; limit?: number }) =>
    send('cli:plugin:log:list', 'plugin.log.list', { ...given('plugin_id', flags.plugin), ...given('limit', flags.limit) }, flags, shown(logTable)),
  );
}
