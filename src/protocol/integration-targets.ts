/**
 * The targets of `integration.install|uninstall|list` (docs/agents.md "Integrations"): herdr's
 * current protocol names seventeen; this server installs the integrations of the CLIs it drives
 * through real turns, and gemini's (herdr names none for it). The others answer
 * `integration_unsupported`, saying so.
 */
export const HERDR_INTEGRATION_TARGETS = [
  'pi', 'omp', 'claude', 'codex', 'copilot', 'devin', 'droid', 'kimi', 'opencode', 'kilo', 'hermes', 'qodercli', 'qwen', 'cursor', 'mastracode', 'antigravity_cli', 'grok',
] as const;

export const INSTALLABLE_TARGETS = ['claude', 'codex', 'opencode', 'pi', 'qwen', 'gemini'] as const;
export type InstallableTarget = (typeof INSTALLABLE_TARGETS)[number];

export const INTEGRATION_TARGETS = [...HERDR_INTEGRATION_TARGETS, 'gemini'] as const;
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number];

export function isInstallable(target: string): target is InstallableTarget {
  return (INSTALLABLE_TARGETS as readonly string[]).includes(target);
}
