/** Rules as `herdr rules list` shows them: one line each, what sets it off and what it does in a few words. */
import type { RuleAction, RuleInfo, RuleTrigger } from '../../protocol/rules.js';
import { alignedTable } from '../table.js';

export function triggerText(trigger: RuleTrigger): string {
  switch (trigger.type) {
    case 'agent_status': {
      const who = trigger.agent ?? (trigger.kind === undefined ? 'any' : `(${trigger.kind})`);
      return `agent ${who} ${trigger.status}${trigger.workspace_id === undefined ? '' : ` in ${trigger.workspace_id}`}`;
    }
    case 'command_finished':
      return `command ${trigger.exit ?? 'any'} in ${trigger.pane_id ?? trigger.workspace_id ?? 'any pane'}`;
    case 'output_matched': {
      const pattern = trigger.match.type === 'regex' ? `/${trigger.match.value}/` : JSON.stringify(trigger.match.value);
      return `output ${pattern} in ${trigger.pane_id ?? trigger.agent ?? '?'}`;
    }
    case 'schedule':
      return `every ${JSON.stringify(trigger.cron)}${trigger.timezone === undefined ? '' : ` ${trigger.timezone}`}`;
  }
}

export function actionText(action: RuleAction): string {
  if (action.type === 'start') return `start ${action.agent}${action.kind === undefined ? '' : ` (${action.kind})`}`;
  return `${action.type} → ${action.agent}`;
}

export function rulesTable(rules: readonly RuleInfo[]): string {
  return alignedTable(
    ['ID', 'NAME', 'WHEN', 'THEN', 'FIRED/SKIPPED/FAILED'],
    rules.map((rule) => [rule.rule_id, rule.name ?? '-', triggerText(rule.trigger), actionText(rule.action), `${rule.fired}/${rule.skipped}/${rule.failed}`]),
  );
}
