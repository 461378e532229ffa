/**
 * Reading a plugin's `herdr-plugin.toml` (docs/protocol.md §16) the way herdr reads it:
 * TOML parsed by a real parser (smol-toml), each field checked for its type, then herdr's
 * rules (ids, required text, argv commands, platforms, popup sizes, link handlers), each
 * failure a ProtocolError with herdr's code. Unknown keys are ignored, as herdr ignores them.
 * Nothing here runs anything.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import RE2 from 're2';
import { TomlError, parse as parseToml } from 'smol-toml';
import { type ErrorCode, ProtocolError } from '../../protocol/errors.js';
import {
  type InstalledPlugin,
  type ManifestAction,
  type ManifestCommand,
  type ManifestEventHook,
  type ManifestLinkHandler,
  type ManifestPane,
  PLUGIN_ACTION_CONTEXTS,
  PLUGIN_API_HERDR_VERSION,
  PLUGIN_PANE_PLACEMENTS,
  PLUGIN_PLATFORMS,
} from '../../protocol/plugins.js';

export const MANIFEST_FILE = 'herdr-plugin.toml';
/** A manifest is a few KB; a bigger file is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_ID_CHARS = 120;

/** The event names a `[[events]] on` may name (herdr's hook kinds); another name links with a warning. */
export const HOOK_EVENT_NAMES: readonly string[] = [
  'workspace.created', 'workspace.updated', 'workspace.closed', 'workspace.renamed', 'workspace.moved',
  'workspace.reordered', 'workspace.focused', 'worktree.created', 'worktree.opened', 'worktree.removed',
  'tab.created', 'tab.closed', 'tab.renamed', 'tab.moved', 'tab.focused',
  'pane.created', 'pane.closed', 'pane.focused', 'pane.moved', 'pane.exited', 'pane.agent_detected', 'pane.agent_status_changed',
];

const PLUGIN_ID = /^[A-Za-z0-9:._-]+$/;
/** Action, pane and link handler ids are local: no dot, so `<plugin>.<action>` stays unambiguous. */
const LOCAL_ID = /^[A-Za-z0-9:_-]+$/;

/** A plugin id as herdr accepts it (trimmed), or undefined. */
export function normalPluginId(value: string): string | undefined {
  const id = value.trim();
  return id !== '' && [...id].length <= MAX_ID_CHARS && PLUGIN_ID.test(id) ? id : undefined;
}

/** An action, pane or link handler id as herdr accepts it (trimmed), or undefined. */
export function normalLocalId(value: string): string | undefined {
  const id = value.trim();
  return id !== '' && [...id].length <= MAX_ID_CHARS && LOCAL_ID.test(id) ? id : undefined;
}

/** `X.Y.Z` (a leading `v` allowed) as three numbers, or undefined. */
function parseVersion(text: string): [number, number, number] | undefined {
  const parts = text.replace(/^v/, '').split('.');
  if (parts.length !== 3 || !parts.every((part) => /^\d+$/.test(part))) return undefined;
  const [major, minor, patch] = parts.map(Number) as [number, number, number];
  return [major, minor, patch];
}

function newerThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** Where the manifest of a linked path is: the path itself when it names the file, else `<dir>/herdr-plugin.toml`. */
export async function manifestPathOf(path: string): Promise<string> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    throw new ProtocolError('plugin_manifest_not_found', `${path}: ${reason(error)}`);
  }
  // A linked path is a plugin's directory, or its manifest named as herdr names it: never some other file.
  if (!isDirectory && basename(path) !== MANIFEST_FILE) {
    throw new ProtocolError('plugin_manifest_not_found', `${path} is neither a directory nor a ${MANIFEST_FILE}`);
  }
  const manifest = isDirectory ? join(path, MANIFEST_FILE) : path;
  try {
    const real = await realpath(manifest);
    if (!(await stat(real)).isFile()) throw new ProtocolError('plugin_manifest_not_found', `${manifest} is not a file`);
    return real;
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError('plugin_manifest_not_found', `no ${MANIFEST_FILE} in ${path} (${reason(error)})`);
  }
}

/** Reads and checks the manifest at `path` (a plugin directory or its manifest file). */
export async function loadManifest(path: string, enabled: boolean): Promise<InstalledPlugin> {
  const manifestPath = await manifestPathOf(path);
  let text: string;
  try {
    if ((await stat(manifestPath)).size > MAX_MANIFEST_BYTES) throw new Error(`larger than ${MAX_MANIFEST_BYTES} bytes`);
    text = await readFile(manifestPath, 'utf8');
  } catch (error) {
    throw new ProtocolError('plugin_manifest_read_failed', `${manifestPath}: ${reason(error)}`);
  }
  return checkManifest(parseManifestText(text, manifestPath), manifestPath, enabled);
}

type Table = Record<string, unknown>;

function parseManifestText(text: string, manifestPath: string): Table {
  try {
    return parseToml(text, { unsafeKeyBehaviour: 'drop', maxDepth: 32 }) as Table;
  } catch (error) {
    const message = error instanceof TomlError ? error.message.split('\n')[0] ?? error.message : reason(error);
    throw new ProtocolError('plugin_manifest_parse_failed', `${manifestPath}: ${message}`);
  }
}

/** A type error in the manifest: herdr's deserializer reports these as parse failures. */
function typeError(where: string, expected: string): ProtocolError {
  return new ProtocolError('plugin_manifest_parse_failed', `${where}: expected ${expected}`);
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A field read off a TOML table, typed, with where it is for messages. */
class Fields {
  constructor(
    private readonly table: Table,
    private readonly where: string,
  ) {}

  private at(key: string): string {
    return this.where === '' ? key : `${this.where}.${key}`;
  }

  requiredString(key: string): string {
    const value = this.table[key];
    if (value === undefined) throw new ProtocolError('plugin_manifest_parse_failed', `${this.at(key)} is missing`);
    if (typeof value !== 'string') throw typeError(this.at(key), 'a string');
    return value;
  }

  string(key: string): string | undefined {
    const value = this.table[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw typeError(this.at(key), 'a string');
    return value;
  }

  command(key: string): string[] {
    const value = this.table[key];
    if (value === undefined) throw new ProtocolError('plugin_manifest_parse_failed', `${this.at(key)} is missing`);
    if (!Array.isArray(value) || !value.every((arg) => typeof arg === 'string')) throw typeError(this.at(key), 'an array of strings (an argv)');
    const argv = value as string[];
    if (argv.length === 0 || argv.some((arg) => arg === '')) {
      throw new ProtocolError('invalid_plugin_command', `${this.at(key)}: a command is a non-empty argv of non-empty strings`);
    }
    if (argv.some((arg) => arg.includes('\0'))) throw new ProtocolError('invalid_plugin_command', `${this.at(key)}: an argument holds a NUL byte`);
    return argv;
  }

  /** herdr's rule: absent means undeclared, an empty list is an error. */
  platforms(key = 'platforms'): Array<(typeof PLUGIN_PLATFORMS)[number]> | undefined {
    const value = this.table[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw typeError(this.at(key), 'an array of platform names');
    for (const item of value) {
      if (typeof item !== 'string' || !(PLUGIN_PLATFORMS as readonly string[]).includes(item)) {
        // herdr's deserializer refuses the name, so it is a parse failure there too.
        throw new ProtocolError('plugin_manifest_parse_failed', `${this.at(key)}: unknown platform ${JSON.stringify(item)} (one of ${PLUGIN_PLATFORMS.join(', ')})`);
      }
    }
    if (value.length === 0) throw new ProtocolError('invalid_plugin_platform', `${this.at(key)} is empty; leave it out to declare no platforms`);
    return value as Array<(typeof PLUGIN_PLATFORMS)[number]>;
  }

  enumList<T extends string>(key: string, names: readonly T[]): T[] | undefined {
    const value = this.table[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && (names as readonly string[]).includes(item))) {
      throw typeError(this.at(key), `an array of ${names.join(' | ')}`);
    }
    return value as T[];
  }

  oneOf<T extends string>(key: string, names: readonly T[]): T | undefined {
    const value = this.table[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(names as readonly string[]).includes(value)) throw typeError(this.at(key), names.join(' | '));
    return value as T;
  }

  popupSize(key: string): number | string | undefined {
    const value = this.table[key];
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535) return value;
    if (typeof value === 'string' && /^(100|[1-9][0-9]?)%$/.test(value)) return value;
    throw typeError(this.at(key), 'a number of cells (0–65535) or a percentage such as "80%"');
  }

  /** An array of tables (`[[actions]]`), each read by `read`. */
  tables<T>(key: string, read: (fields: Fields) => T): T[] {
    const value = this.table[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every(isTable)) throw typeError(this.at(key), `an array of tables ([[${key}]])`);
    return value.map((table, index) => read(new Fields(table, `${this.at(key)}[${index}]`)));
  }
}

/** Trimmed text, or the error herdr answers when it is blank. */
function required(value: string, code: ErrorCode, message: string): string {
  const text = value.trim();
  if (text === '') throw new ProtocolError(code, message);
  return text;
}

function trimmedOrNone(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** Optional fields left out, as herdr leaves them out of its answers. */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}

function command(fields: Fields): ManifestCommand {
  return defined({ platforms: fields.platforms(), command: fields.command('command') });
}

function action(fields: Fields): ManifestAction {
  const id = normalLocalId(fields.requiredString('id'));
  if (id === undefined) throw new ProtocolError('invalid_plugin_action_id', 'invalid action id: ASCII letters, digits, colon, underscore or hyphen (no dot), at most 120');
  const contexts = fields.enumList('contexts', PLUGIN_ACTION_CONTEXTS);
  return defined({
    id,
    title: required(fields.requiredString('title'), 'invalid_plugin_action_title', `action ${id}: a title is required`),
    description: trimmedOrNone(fields.string('description')),
    contexts: contexts && contexts.length > 0 ? contexts : undefined,
    platforms: fields.platforms(),
    command: fields.command('command'),
  });
}

function pane(fields: Fields): ManifestPane {
  const id = normalLocalId(fields.requiredString('id'));
  if (id === undefined) throw new ProtocolError('invalid_plugin_pane_id', 'invalid pane id: ASCII letters, digits, colon, underscore or hyphen (no dot), at most 120');
  const title = required(fields.requiredString('title'), 'invalid_plugin_pane_title', `pane ${id}: a title is required`);
  const entry = defined({
    id,
    title,
    description: trimmedOrNone(fields.string('description')),
    platforms: fields.platforms(),
    placement: fields.oneOf('placement', PLUGIN_PANE_PLACEMENTS) ?? 'overlay',
    width: fields.popupSize('width'),
    height: fields.popupSize('height'),
    command: fields.command('command'),
  });
  if (entry.placement !== 'popup' && (entry.width !== undefined || entry.height !== undefined)) {
    throw new ProtocolError('invalid_plugin_pane_size', `pane ${id}: width and height are for placement = "popup" only`);
  }
  return entry;
}

function eventHook(fields: Fields): ManifestEventHook {
  const on = required(fields.requiredString('on'), 'invalid_plugin_event', 'an [[events]] entry needs the event name in `on`');
  return defined({ on, platforms: fields.platforms(), command: fields.command('command') });
}

function linkHandler(fields: Fields): ManifestLinkHandler {
  const id = normalLocalId(fields.requiredString('id'));
  if (id === undefined) throw new ProtocolError('invalid_plugin_link_handler_id', 'invalid link handler id: ASCII letters, digits, colon, underscore or hyphen (no dot), at most 120');
  const title = required(fields.requiredString('title'), 'invalid_plugin_link_handler_title', `link handler ${id}: a title is required`);
  const pattern = required(fields.requiredString('pattern'), 'invalid_plugin_link_handler_pattern', `link handler ${id}: a pattern is required`);
  try {
    new RE2(pattern);
  } catch (error) {
    throw new ProtocolError('invalid_plugin_link_handler_pattern', `link handler ${id}: ${reason(error)}`);
  }
  const target = normalLocalId(fields.requiredString('action'));
  if (target === undefined) throw new ProtocolError('invalid_plugin_link_handler_action', `link handler ${id}: invalid action id`);
  return defined({ id, title, pattern, action: target, platforms: fields.platforms() });
}

function refuseDuplicates(ids: readonly string[], code: ErrorCode, what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new ProtocolError(code, `duplicate ${what} id ${JSON.stringify(id)}`);
    seen.add(id);
  }
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function checkManifest(table: Table, manifestPath: string, enabled: boolean): InstalledPlugin {
  const top = new Fields(table, '');
  const id = normalPluginId(top.requiredString('id'));
  if (id === undefined) throw new ProtocolError('invalid_plugin_id', 'invalid plugin id: ASCII letters, digits, colon, dot, underscore or hyphen, at most 120');
  const name = required(top.requiredString('name'), 'invalid_plugin_name', 'a plugin name is required');
  const version = required(top.requiredString('version'), 'invalid_plugin_version', 'a plugin version is required');
  const minText = top.string('min_herdr_version');
  if (minText === undefined || minText.trim() === '') throw new ProtocolError('invalid_plugin_min_herdr_version', 'min_herdr_version is required');
  const min = parseVersion(minText.trim());
  if (!min) throw new ProtocolError('invalid_plugin_min_herdr_version', `min_herdr_version must be a version such as ${PLUGIN_API_HERDR_VERSION}`);
  const current = parseVersion(PLUGIN_API_HERDR_VERSION) ?? [0, 0, 0];
  if (newerThan(min, current)) {
    throw new ProtocolError('plugin_requires_newer_herdr', `the plugin needs herdr ${min.join('.')} or newer; this server implements herdr ${PLUGIN_API_HERDR_VERSION}'s plugin API`);
  }
  const description = trimmedOrNone(top.string('description'));
  const platforms = top.platforms();
  const build = top.tables('build', command);
  const startup = top.tables('startup', command);
  const actions = top.tables('actions', action);
  refuseDuplicates(actions.map((a) => a.id), 'duplicate_plugin_action_id', 'action');
  actions.sort((a, b) => byText(a.id, b.id));
  const events = top.tables('events', eventHook);
  events.sort((a, b) => byText(a.on, b.on) || byText(a.command.join('\0'), b.command.join('\0')));
  const panes = top.tables('panes', pane);
  refuseDuplicates(panes.map((p) => p.id), 'duplicate_plugin_pane_id', 'pane');
  panes.sort((a, b) => byText(a.id, b.id));
  const linkHandlers = top.tables('link_handlers', linkHandler);
  refuseDuplicates(linkHandlers.map((h) => h.id), 'duplicate_plugin_link_handler_id', 'link handler');
  for (const handler of linkHandlers) {
    if (!actions.some((a) => a.id === handler.action)) {
      throw new ProtocolError('invalid_plugin_link_handler_action', `link handler ${handler.id} names action ${handler.action}, which the manifest does not declare`);
    }
  }
  const warnings = events.filter((hook) => !HOOK_EVENT_NAMES.includes(hook.on)).map((hook) => `unknown event '${hook.on}'`);
  if (platforms === undefined) warnings.push('manifest does not declare platforms; platform support unknown');
  return defined({
    plugin_id: id,
    name,
    version,
    min_herdr_version: min.join('.'),
    description,
    manifest_path: manifestPath,
    plugin_root: dirname(manifestPath),
    enabled,
    platforms,
    build: build.length > 0 ? build : undefined,
    startup: startup.length > 0 ? startup : undefined,
    actions: actions.length > 0 ? actions : undefined,
    events: events.length > 0 ? events : undefined,
    panes: panes.length > 0 ? panes : undefined,
    link_handlers: linkHandlers.length > 0 ? linkHandlers : undefined,
    source: { kind: 'local' as const },
    warnings: warnings.length > 0 ? warnings : undefined,
  });
}

/** Whether this machine is one the item (or else the plugin) says it runs on; undeclared runs anywhere. */
export function runsHere(item: { platforms?: readonly string[] | undefined }, plugin: { platforms?: readonly string[] | undefined }): boolean {
  const platforms = item.platforms ?? plugin.platforms;
  return platforms === undefined || platforms.includes(hostPlatform());
}

export function hostPlatform(): (typeof PLUGIN_PLATFORMS)[number] {
  if (process.platform === 'darwin') return 'macos';
  if (process.platform === 'win32') return 'windows';
  return 'linux';
}

function reason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return code ?? message ?? String(error);
}
