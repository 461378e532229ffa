/**
 * `herdr integration install|uninstall|status <agent>` (docs/agents.md "Integrations"): each
 * CLI's own hook, plugin or extension configuration written so that it reports its state and
 * session to herdr. Idempotent (installing twice changes nothing), reversible (uninstall takes
 * out exactly what install put in, the user's own hooks kept), and every file edited is backed up
 * first (config-files.ts).
 */
import { chmodSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOOK_SCRIPT_NAME, INTEGRATION_VERSION, OPENCODE_PLUGIN, OPENCODE_PLUGIN_NAME, PI_EXTENSION, PI_EXTENSION_NAME, hookScript } from './assets.js';
import { IntegrationError, type JsonObject, hasHooks, jsonText, readJsonObject, readText, removeFile, setTomlKey, withHooks, withoutHooks, withoutTomlMarks, writeFile } from './config-files.js';
import { HOOK_EVENTS } from './hook-events.js';
import { type InstallableTarget, isInstallable } from '../protocol/integration-targets.js';

export { IntegrationError } from './config-files.js';

/** Where to install: a home (the server's, or one given), and the environment that may move a CLI's folder. */
export interface IntegrationPlace {
  home: string;
  env: Record<string, string | undefined>;
}

export interface IntegrationStatus {
  target: InstallableTarget;
  installed: boolean;
  /** The version of what is installed (INTEGRATION_VERSION when current). */
  version?: number;
  /** The files herdr writes or edits for it. */
  files: string[];
}

interface Integration {
  files(place: IntegrationPlace): string[];
  install(place: IntegrationPlace): string[];
  uninstall(place: IntegrationPlace): string[];
  installed(place: IntegrationPlace): boolean;
}

/** The server's own home and environment. */
export function serverPlace(home?: string): IntegrationPlace {
  // A home given explicitly is a whole place of its own: the server's CLAUDE_CONFIG_DIR and the like do not move into it.
  return home === undefined ? { home: homedir(), env: process.env } : { home, env: {} };
}

const versionOf = (text: string | undefined) => Number(/\(version (\d+)\)/.exec(text ?? '')?.[1] ?? NaN);

/** A script herdr writes, executable. */
function writeScript(path: string, text: string, messages: string[]): void {
  if (writeFile(path, text, 0o755)) messages.push(`wrote ${path}`);
  chmodSync(path, 0o755);
}

/**
 * A CLI whose hooks run commands, configured in a JSON file of Claude Code's shape under
 * `hooks` (Claude Code, qwen, gemini) or in a hooks file of its own (codex).
 */
function commandHooks(
  agent: InstallableTarget,
  folder: (place: IntegrationPlace) => string,
  settingsFile: string,
  entry: (command: string, event: string) => JsonObject,
  extra?: { install(place: IntegrationPlace, messages: string[]): void; uninstall(place: IntegrationPlace, messages: string[]): void; files(place: IntegrationPlace): string[] },
): Integration {
  const events = HOOK_EVENTS[agent] ?? [];
  const scriptOf = (place: IntegrationPlace) => join(folder(place), agent === 'codex' ? '' : 'hooks', HOOK_SCRIPT_NAME);
  const settingsOf = (place: IntegrationPlace) => join(folder(place), settingsFile);
  return {
    files: (place) => [scriptOf(place), settingsOf(place), ...(extra?.files(place) ?? [])],
    install(place) {
      const messages: string[] = [];
      const script = scriptOf(place);
      const settings = readJsonObject(settingsOf(place));
      writeScript(script, hookScript(agent), messages);
      const hooks = (settings.hooks ?? {}) as JsonObject;
      const next = { ...settings, hooks: withHooks(hooks, events, (event) => entry(`${script} ${event}`, event), HOOK_SCRIPT_NAME) };
      if (writeFile(settingsOf(place), jsonText(next))) messages.push(`added herdr's hooks (${events.join(', ')}) to ${settingsOf(place)}`);
      extra?.install(place, messages);
      return messages;
    },
    uninstall(place) {
      const messages: string[] = [];
      const path = settingsOf(place);
      if (existsSync(path)) {
        const settings = readJsonObject(path);
        const hooks = withoutHooks((settings.hooks ?? {}) as JsonObject, HOOK_SCRIPT_NAME);
        const next: JsonObject = { ...settings, hooks };
        if (Object.keys(hooks).length === 0) delete next.hooks;
        if (writeFile(path, jsonText(next))) messages.push(`took herdr's hooks out of ${path}`);
      }
      if (removeFile(scriptOf(place))) messages.push(`removed ${scriptOf(place)}`);
      extra?.uninstall(place, messages);
      return messages;
    },
    installed: (place) => existsSync(scriptOf(place)) && hasHooks((readJsonObject(settingsOf(place)).hooks ?? {}) as JsonObject, events, HOOK_SCRIPT_NAME),
  };
}

/** A CLI that loads a file of herdr's from a folder of its own (opencode's plugin, pi's extension). */
function loadedFile(path: (place: IntegrationPlace) => string, text: string): Integration {
  return {
    files: (place) => [path(place)],
    install(place) {
      return writeFile(path(place), text) ? [`wrote ${path(place)}`] : [];
    },
    uninstall(place) {
      return removeFile(path(place)) ? [`removed ${path(place)}`] : [];
    },
    installed: (place) => existsSync(path(place)),
  };
}

const claudeFolder = (place: IntegrationPlace) => place.env.CLAUDE_CONFIG_DIR ?? join(place.home, '.claude');
const codexFolder = (place: IntegrationPlace) => place.env.CODEX_HOME ?? join(place.home, '.codex');

/** Claude Code's hook entry (tools: every tool). */
const claudeEntry = (command: string, event: string): JsonObject => ({
  ...(event.includes('ToolUse') ? { matcher: '*' } : {}),
  hooks: [{ type: 'command', command, timeout: 10 }],
});

const INTEGRATIONS: Record<InstallableTarget, Integration> = {
  claude: commandHooks('claude', claudeFolder, 'settings.json', claudeEntry),
  qwen: commandHooks('qwen', (place) => join(place.home, '.qwen'), 'settings.json', claudeEntry),
  // A short name: gemini shows its running hooks' names on its spinner line, where long ones push its hint off.
  gemini: commandHooks('gemini', (place) => join(place.home, '.gemini'), 'settings.json', (command, event) => ({
    ...(event.includes('Tool') ? { matcher: '.*' } : {}),
    hooks: [{ name: 'herdr', type: 'command', command, timeout: 5000 }],
  })),
  codex: commandHooks('codex', codexFolder, 'hooks.json', (command) => ({ hooks: [{ type: 'command', command, timeout: 10 }] }), {
    files: (place) => [join(codexFolder(place), 'config.toml')],
    install(place, messages) {
      const path = join(codexFolder(place), 'config.toml');
      const before = readText(path) ?? '';
      // Its hooks on; and no shared daemon, which would run the hooks (and tools) of every later codex in the
      // environment of the pane that started it: their reports would go to that pane.
      const next = setTomlKey(setTomlKey(before, 'features', 'hooks', 'true'), 'features', 'daemon_auto_start', 'false');
      if (writeFile(path, next)) messages.push(`set [features] hooks = true and daemon_auto_start = false in ${path}`);
      if (messages.length > 0) messages.push('codex asks to review new hooks at its next start ("Hooks need review"): trust them there');
    },
    uninstall(place, messages) {
      const path = join(codexFolder(place), 'config.toml');
      const before = readText(path);
      if (before !== undefined && writeFile(path, withoutTomlMarks(before))) messages.push(`put back the [features] keys herdr set in ${path}`);
    },
  }),
  opencode: loadedFile((place) => join(place.env.XDG_CONFIG_HOME ?? join(place.home, '.config'), 'opencode', 'plugins', OPENCODE_PLUGIN_NAME), OPENCODE_PLUGIN),
  pi: loadedFile((place) => join(place.env.PI_CODING_AGENT_DIR ?? join(place.home, '.pi', 'agent'), 'extensions', PI_EXTENSION_NAME), PI_EXTENSION),
};

function integrationOf(target: string): Integration & { target: InstallableTarget } {
  if (!isInstallable(target)) throw new IntegrationError(`no integration for ${target} on this server (it installs: ${Object.keys(INTEGRATIONS).join(', ')})`);
  return { ...INTEGRATIONS[target], target };
}

export function installIntegration(target: string, place: IntegrationPlace): string[] {
  const messages = integrationOf(target).install(place);
  return messages.length > 0 ? messages : [`${target}: already installed, nothing changed`];
}

export function uninstallIntegration(target: string, place: IntegrationPlace): string[] {
  const messages = integrationOf(target).uninstall(place);
  return messages.length > 0 ? messages : [`${target}: not installed, nothing changed`];
}

export function integrationStatus(target: InstallableTarget, place: IntegrationPlace): IntegrationStatus {
  const integration = integrationOf(target);
  const files = integration.files(place);
  const installed = integration.installed(place);
  const version = versionOf(readText(files[0] ?? ''));
  return { target, installed, ...(installed && Number.isFinite(version) ? { version } : {}), files };
}

export const CURRENT_INTEGRATION_VERSION = INTEGRATION_VERSION;
