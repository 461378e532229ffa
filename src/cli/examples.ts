/** One example per command, shown at the end of its `--help` (keyed by its path of names). */
import type { Command } from 'commander';

export const EXAMPLES: Record<string, string> = {
  'server': 'herdr server --workers 2 --socket /tmp/herdr.sock',
  'server stop': 'herdr server stop',
  'workspace list': 'herdr workspace list',
  'workspace create': 'herdr workspace create --cwd ~/src/app --label app',
  'workspace get': 'herdr workspace get 1',
  'workspace focus': 'herdr workspace focus 2',
  'workspace rename': 'herdr workspace rename 1 api refactor',
  'workspace close': 'herdr workspace close w3',
  'tab list': 'herdr tab list --workspace w1',
  'tab create': 'herdr tab create --workspace w1 --cwd ~/src/app --label tests --focus',
  'tab get': 'herdr tab get w1:t2',
  'tab focus': 'herdr tab focus w1:t2',
  'tab rename': 'herdr tab rename w1:t2 api tests',
  'tab close': 'herdr tab close w1:t2',
  'pane list': 'herdr pane list --workspace 1',
  'pane current': 'herdr pane current | jq -r .result.pane.workspace_id',
  'pane get': 'herdr pane get "$HERDR_PANE_ID"',
  'pane read': 'herdr pane read 1-2 --source recent --lines 200',
  'pane split': 'herdr pane split --current --direction down --env MODE=watch --no-focus',
  'pane close': 'herdr pane close 1-2',
  'pane send-text': "herdr pane send-text 1-1 'yes'",
  'pane send-keys': 'herdr pane send-keys 1-1 C-c Enter',
  'pane run': "herdr pane run 1-1 'npm test'",
  'pane wait-output': "herdr pane wait-output 1-1 --regex 'tests? passed' --timeout 60000",
  'pane attach': 'herdr pane attach 1-2 --detach-key C-g',
  'pane report-agent': 'herdr pane report-agent "$HERDR_PANE_ID" --source my-hook --agent mybot --state blocked --message \'Allow rm?\' --seq "$(date +%s%N)"',
  'pane release-agent': 'herdr pane release-agent "$HERDR_PANE_ID" --source my-hook --agent mybot --seq "$(date +%s%N)"',
  'pane report-agent-session': 'herdr pane report-agent-session "$HERDR_PANE_ID" --source my-hook --agent mybot --agent-session-id 3f2a --seq "$(date +%s%N)"',
  'agent list': 'herdr agent list',
  'agent get': 'herdr agent get reviewer',
  'agent read': 'herdr agent read reviewer --source recent --lines 100',
  'agent start': 'herdr agent start reviewer --kind codex --cwd ~/src/app -- -m gpt-5',
  'agent prompt': "herdr agent prompt reviewer 'Review the diff on this branch' --wait --timeout 600000",
  'agent wait': 'herdr agent wait reviewer --until done --until blocked --timeout 600000',
  'agent send-keys': 'herdr agent send-keys reviewer 1 Enter',
  'agent rename': 'herdr agent rename 1-2 reviewer',
  'agent focus': 'herdr agent focus reviewer',
  'agent explain': 'herdr agent explain 1-2',
  'pane process-info': 'herdr pane process-info 1-2 | jq \'.result.process_info.foreground_processes[].argv\'',
  'pane rename': 'herdr pane rename 1-2 api tests',
  'pane report-metadata': 'herdr pane report-metadata "$HERDR_PANE_ID" --source my-tool --token branch=main --token tests=412/412 --ttl 600000',
  'workspace report-metadata': 'herdr workspace report-metadata 1 --source ci --token build=green --seq "$(date +%s%N)"',
  'wait output': "herdr wait output 1-1 --match 'tests passed' --timeout 60000",
  'wait agent-state': 'herdr wait agent-state 1-1 --state idle --timeout 600000',
  'watch': 'herdr watch --host buildbox --host gpu-1',
  'fleet list': 'herdr fleet list --host buildbox --host gpu-1',
  'fleet events': 'herdr fleet events --host buildbox | jq -c \'select(.event == "pane.agent_state_changed")\'',
  'dial-stdio': 'ssh buildbox herdr dial-stdio',
  'mcp': 'claude mcp add herdr -- npx herdr mcp',
  'web': 'ssh -L 7400:127.0.0.1:7400 buildbox herdr web --read-only',
  'inbox answer': 'herdr inbox answer w1:p3 2 --hash 5f0c2a9e41b7d3c8',
  'inbox answer-all': 'herdr inbox answer-all --agent claude --question "trust the files" --label yes',
  'completion': 'source <(herdr completion bash)',
  'schema': 'herdr schema > protocol.schema.json',
  'api snapshot': "herdr api snapshot | jq '.result.snapshot.agents'",
  'api schema': 'herdr api schema --output protocol.schema.json',
  'status': 'herdr status server --json',
  'layout export': 'herdr layout export --workspace 2 > review.json',
  'layout apply': 'herdr layout apply review.json --label review --focus',
  'worktree list': 'herdr worktree list --cwd ~/src/app',
  'worktree create': 'herdr worktree create --cwd ~/src/app --branch fix-login --base origin/main --focus',
  'worktree open': 'herdr worktree open --cwd ~/src/app --branch fix-login',
  'worktree remove': 'herdr worktree remove --workspace 3 --force',
};

/** Adds its example to every command that has one (and says nothing for the groups). */
export function addExamples(command: Command, path: string[] = []): void {
  for (const sub of command.commands) {
    const names = [...path, sub.name()];
    const example = EXAMPLES[names.join(' ')];
    if (example) sub.addHelpText('after', `\nExample:\n  $ ${example}\n`);
    addExamples(sub, names);
  }
}
