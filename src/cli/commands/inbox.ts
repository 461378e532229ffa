/**
 * `herdr inbox` (docs/protocol.md §13.6): every blocked agent across servers, live, one key
 * per option; `--once` (or `--json`) prints them for scripts; `inbox answer` answers one.
 */
import type { Command } from 'commander';
import type { HostTarget } from '../../client/transport.js';
import { exitWith, usageError } from '../failure.js';
import { type HostApproval, approvalId, inboxTable } from '../inbox/inbox-table.js';
import { InboxView } from '../inbox/inbox-view.js';
import { type SocketOption, given, printJson, send, shown } from '../output.js';
import { approvalAnswered, approvalsAnswered } from '../human/approvals.js';
import { type FleetFlags, askEveryServer, fleetOptions, fleetTargets, reportUnreachable } from './fleet-targets.js';

/** Every server's approvals once; an unreachable server is one line on stderr and exit 1, after the others'. */
async function printInbox(targets: readonly HostTarget[], json: boolean): Promise<number> {
  const { answers, failures } = await askEveryServer(targets, (client) => client.call('approvals.list', {}));
  const entries = answers
    .flatMap(({ host, value }) => value.approvals.map((approval): HostApproval => ({ host, approval })))
    .sort((a, b) => a.approval.since - b.approval.since);
  if (json) for (const { host, approval } of entries) printJson({ host: host ?? 'local', id: approvalId(host, approval), ...approval });
  else process.stdout.write(inboxTable(entries, Date.now()));
  return reportUnreachable(failures);
}

export function addInboxCommand(program: Command): void {
  const inbox = fleetOptions(
    program
      .command('inbox')
      .description('every blocked agent with its question and options, live, across servers; a digit answers the selected one')
      .option('--once', 'print them once, as a table, and exit')
      .option('--json', 'print them once, one JSON line each (with host and a host-qualified id), and exit'),
  ).action(async (flags: FleetFlags & { once?: boolean; json?: boolean }) => {
    const targets = fleetTargets(flags);
    try {
      if (flags.once || flags.json || !process.stdout.isTTY || !process.stdin.isTTY) process.exit(await printInbox(targets, flags.json === true));
      process.exit(await new InboxView(targets, process.stdin, process.stdout).run());
    } catch (error) {
      exitWith(error);
    }
  });

  inbox
    .command('answer')
    .argument('<pane>', 'the pane (`host/w1:p3` for a remote one, as --json prints it)')
    .argument('<option>', 'the option\'s key (its number)')
    .requiredOption('--hash <question_hash>', 'the question_hash listed with it: nothing is typed if the question changed since')
    .option('--socket <path>', 'socket path')
    .description('answer one blocked agent\'s menu, only if the same question is still on its screen')
    .action((pane: string, option: string, flags: SocketOption & { hash: string }) =>
      send('cli:inbox:answer', 'approvals.answer', { pane_id: pane, option, question_hash: flags.hash }, flags, shown((result) => approvalAnswered(result, pane))),
    );

  inbox
    .command('answer-all')
    .option('--option <key>', 'the option to pick in each (its number)')
    .option('--label <text>', 'or the option whose label starts with this (case-insensitive)')
    .option('--agent <kind>', 'only this agent kind (claude, codex, …)')
    .option('--question <text>', 'only questions holding this text (case-insensitive)')
    .option('--workspace <id>', 'only this workspace')
    .option('--socket <path>', 'socket path')
    .description('answer every blocked agent that matches, each only if its question is still the one listed; prints what was answered and what was skipped')
    .action((flags: SocketOption & { option?: string; label?: string; agent?: string; question?: string; workspace?: string }) => {
      if ((flags.option === undefined) === (flags.label === undefined)) usageError('give exactly one of --option and --label');
      return send(
        'cli:inbox:answer-all',
        'approvals.answer_matching',
        {
          ...given('option', flags.option),
          ...given('label', flags.label),
          ...given('agent', flags.agent),
          ...given('question', flags.question),
          ...given('workspace_id', flags.workspace),
        },
        flags,
        shown(approvalsAnswered),
      );
    });
}
