/** Event rules, `rules.*` (docs/protocol.md §13.8): params to the rule book, rules as the wire shows them. */
import type { ServerCore } from '../core.js';
import type { Router } from '../router.js';

export function registerRuleHandlers(router: Router, core: Pick<ServerCore, 'rules'>): void {
  const { rules } = core;
  router.register('rules.add', (params) => ({ type: 'rule_info', rule: rules.info(rules.add(params)) }));
  router.register('rules.list', () => ({ type: 'rule_list', rules: rules.list().map((rule) => rules.info(rule)) }));
  router.register('rules.remove', (params) => ({ type: 'rule_info', rule: rules.info(rules.remove(params.rule_id)) }));
}
