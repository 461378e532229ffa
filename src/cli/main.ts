/** The `herdr` command: a thin layer of commands over the client library. */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../protocol/version.js';
import { addAgentCommands } from './commands/agent.js';
import { addApiCommands } from './commands/api.js';
import { addCompletionCommands } from './commands/completion.js';
import { addDialStdioCommand } from './commands/dial-stdio.js';
import { addFleetCommands } from './commands/fleet.js';
import { addLayoutCommands } from './commands/layout.js';
import { addMcpCommand } from './commands/mcp.js';
import { addWebCommand } from './commands/web.js';
import { addInboxCommand } from './commands/inbox.js';
import { addHookCommand } from './commands/hook.js';
import { addIntegrationCommands } from './commands/integration.js';
import { addRuleCommands } from './commands/rules.js';
import { addNotificationCommands } from './commands/notification.js';
import { addPaneCommands } from './commands/pane.js';
import { addPluginCommands } from './commands/plugin.js';
import { addSchemaCommand } from './commands/schema.js';
import { addServerCommands } from './commands/server.js';
import { addStatusCommand } from './commands/status.js';
import { addTabCommands } from './commands/tab.js';
import { addWaitCommands } from './commands/wait.js';
import { addWatchCommand } from './commands/watch.js';
import { addWorkspaceCommands } from './commands/workspace.js';
import { addWorktreeCommands } from './commands/worktree.js';
import { addExamples } from './examples.js';
import { exitCodeOf } from './exit-codes.js';
import { exitWith } from './failure.js';
import { askJson } from './reader.js';

// A reader that stops early (`herdr schema | head`) is not an error of ours: a command ends
// quietly, as cat does; the server keeps serving without the reader of its log.
const serving = process.argv[2] === 'server';
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  if (!serving) process.exit(0);
});

const program = new Command('herdr')
  .description('control plane for fleets of terminal coding agents')
  .version(VERSION, '-V, --version')
  // A usage error says the one thing wrong and where help is, not the whole help.
  .showHelpAfterError('(add --help for usage)')
  // Flags belong to the command they follow (`herdr server stop --socket X`).
  .enablePositionalOptions()
  .exitOverride();

addServerCommands(program);
addWorkspaceCommands(program);
addTabCommands(program);
addPaneCommands(program);
addAgentCommands(program);
addWaitCommands(program);
addWatchCommand(program);
addFleetCommands(program);
addDialStdioCommand(program);
addCompletionCommands(program);
addSchemaCommand(program);
addApiCommands(program);
addStatusCommand(program);
addLayoutCommands(program);
addWorktreeCommands(program);
addMcpCommand(program);
addWebCommand(program);
addInboxCommand(program);
addRuleCommands(program);
addIntegrationCommands(program);
addPluginCommands(program);
addNotificationCommands(program);
addHookCommand(program);
addExamples(program);

// Every subcommand exits 2 on a usage error (commander's own default is 1).
function exitOverrideAll(command: Command): void {
  command.exitOverride();
  command.commands.forEach(exitOverrideAll);
}
exitOverrideAll(program);

// Every command that talks to a server can talk to one on another host (docs/remote.md).
// Not `herdr server` and `dial-stdio`: they are the local end.
function addRemoteOptions(command: Command): void {
  const name = command.name();
  const localEnd = name === 'server' || name === 'dial-stdio';
  const has = (flag: string) => command.options.some((option) => option.long === flag);
  // Fleet commands take several hosts of their own.
  if (!localEnd && has('--socket') && !has('--host')) {
    command
      .option('--host <[user@]host>', 'the server on this host, over ssh (default: $HERDR_HOST)')
      .option('--ssh-command <command>', 'how ssh is run, split at spaces (default: $HERDR_SSH_COMMAND, else "ssh -T")');
  }
  command.commands.forEach(addRemoteOptions);
}
program.commands.forEach(addRemoteOptions);

// Every command that prints a server's answer, or may fail with a server's error, takes
// --json: the answer (and the error) whole, as JSON, on a terminal too (docs/protocol.md §11).
// Not the local ends, the live views and the fleet commands, whose output is their own.
const OWN_OUTPUT = new Set(['server', 'dial-stdio', 'mcp', 'web', 'hook', 'watch', 'fleet list', 'fleet events', 'pane attach']);
/** Commands whose success prints nothing: their --json is for their errors. */
const PRINTS_NOTHING = new Set([
  'pane send-text', 'pane send-keys', 'pane run', 'pane report-agent', 'pane release-agent', 'pane report-agent-session',
  'pane report-metadata', 'workspace report-metadata', 'agent send-keys',
]);
function addJsonOptions(command: Command, path: string[] = []): void {
  for (const sub of command.commands) {
    const names = [...path, sub.name()];
    const name = names.join(' ');
    const has = (flag: string) => sub.options.some((option) => option.long === flag);
    if (!OWN_OUTPUT.has(name) && has('--socket') && !has('--json')) {
      sub.option(
        '--json',
        PRINTS_NOTHING.has(name)
          ? 'a server error as its JSON answer, on a terminal too (success prints nothing)'
          : 'print the server\'s answer whole, as one JSON line (what is printed when stdout is not a terminal)',
      );
    }
    addJsonOptions(sub, names);
  }
}
addJsonOptions(program);
program.addHelpText(
  'after',
  '\nOn a terminal, answers are tables, `key: value` lines or a sentence, and a server error is one line;\n' +
    'when stdout is not a terminal, or with --json, the server\'s answer is printed whole as JSON (errors on stderr).\n',
);
// --json anywhere on the command line: answers and server errors as JSON, whatever the terminal.
program.hook('preAction', (_program, action) => {
  if (action.opts().json === true) askJson();
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // commander has printed its own error (or the help) already.
  if (error instanceof CommanderError) process.exit(exitCodeOf(error));
  exitWith(error);
}
