/**
 * The linked plugins (docs/protocol.md §16): a JSON file in the server's state directory,
 * `plugins.json`, re-read at every request that uses it (so servers sharing a state
 * directory share their plugins, as herdr's are shared by every session of a user) and
 * replaced atomically on every change. Each entry's manifest is read again from disk
 * whenever the list is: an edited manifest takes effect at once, one that can no longer be
 * read keeps its entry with a warning and runs nothing. With `--no-state` the list lives in
 * memory. Each plugin also gets a config and a state directory of its own.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import { type InstalledPlugin, installedPluginSchema } from '../../protocol/plugins.js';
import { loadManifest } from './manifest.js';

/** A warning that marks an entry whose manifest could not be read this time: it runs nothing. */
export const UNAVAILABLE_PREFIX = 'manifest unavailable: ';

export interface PluginPlaces {
  /** The list's file; undefined: kept in memory only. */
  registryFile: string | undefined;
  /** Under it, `config/<plugin>` and `state/<plugin>`: HERDR_PLUGIN_CONFIG_DIR and HERDR_PLUGIN_STATE_DIR. */
  dataRoot: string;
}

/**
 * A plugin id as one path component: lower-case letters, digits, `.`, `_` and `-` kept,
 * anything else (capitals, `:`) as `%XX`, so two ids never share a directory; a long one
 * is cut and told apart by a hash of the whole id.
 */
export function pathComponent(pluginId: string): string {
  let component = '';
  for (const byte of Buffer.from(pluginId, 'utf8')) {
    const char = String.fromCharCode(byte);
    component += /[a-z0-9._-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (component.endsWith('.')) component = `${component.slice(0, -1)}%2E`;
  if (component === '' || component === '.' || component === '..') component = `%plugin${component}`;
  if (component.length > 120) component = `${component.slice(0, 107)}-${createHash('sha256').update(pluginId).digest('hex').slice(0, 12)}`;
  return component;
}

export function isAvailable(plugin: InstalledPlugin): boolean {
  return !(plugin.warnings ?? []).some((warning) => warning.startsWith(UNAVAILABLE_PREFIX));
}

const storedFile = installedPluginSchema.array();

export class PluginStore {
  /** The list when nothing is kept on disk. */
  private memory: InstalledPlugin[] = [];
  /** Changes one at a time, so two requests never write over each other's. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly places: PluginPlaces,
    /** Told the list each time it was read or changed. */
    private readonly seen: (plugins: readonly InstalledPlugin[]) => void = () => undefined,
  ) {}

  configDir(pluginId: string): string {
    return join(this.places.dataRoot, 'config', pathComponent(pluginId));
  }

  stateDir(pluginId: string): string {
    return join(this.places.dataRoot, 'state', pathComponent(pluginId));
  }

  /** Creates the plugin's config and state directories (private to the user). */
  async ensureDirs(pluginId: string): Promise<void> {
    try {
      for (const dir of [this.configDir(pluginId), this.stateDir(pluginId)]) await mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ProtocolError('plugin_user_dir_create_failed', `cannot create the plugin's directories: ${(error as Error).message}`);
    }
  }

  /** Every linked plugin, sorted by id, each with its manifest as it is on disk now. */
  async list(): Promise<InstalledPlugin[]> {
    const plugins = await refreshed(await this.read('plugin_registry_load_failed'));
    this.seen(plugins);
    return plugins;
  }

  /** Applies `change` to the stored list and saves it; answers what `change` returned and the list after. */
  update<T>(change: (plugins: Map<string, InstalledPlugin>) => T): Promise<{ result: T; plugins: InstalledPlugin[] }> {
    const next = this.chain.then(async () => {
      const byId = new Map((await this.read('plugin_registry_save_failed')).map((plugin) => [plugin.plugin_id, plugin]));
      const result = change(byId);
      const plugins = [...byId.values()].sort((a, b) => (a.plugin_id < b.plugin_id ? -1 : a.plugin_id > b.plugin_id ? 1 : 0));
      await this.write(plugins);
      const fresh = await refreshed(plugins);
      this.seen(fresh);
      return { result, plugins: fresh };
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async read(code: 'plugin_registry_load_failed' | 'plugin_registry_save_failed'): Promise<InstalledPlugin[]> {
    const file = this.places.registryFile;
    if (file === undefined) return structuredClone(this.memory);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ProtocolError(code, `cannot read ${file}: ${(error as Error).message}`);
    }
    let parsed;
    try {
      parsed = storedFile.safeParse(JSON.parse(text));
    } catch (error) {
      throw new ProtocolError(code, `${file} is not JSON: ${(error as Error).message}; fix or remove it`);
    }
    if (!parsed.success) throw new ProtocolError(code, `${file} is not a list of plugins; fix or remove it`);
    return parsed.data;
  }

  private async write(plugins: InstalledPlugin[]): Promise<void> {
    const file = this.places.registryFile;
    if (file === undefined) {
      this.memory = structuredClone(plugins);
      return;
    }
    // Stored without this read's warnings: they are worked out again at every read.
    const stored = plugins.map(({ warnings: _warnings, ...rest }) => rest);
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new ProtocolError('plugin_registry_save_failed', `cannot write ${file}: ${(error as Error).message}`);
    }
  }
}

/** Each entry with its manifest read again: the enabled flag and source stay the stored ones. */
async function refreshed(plugins: InstalledPlugin[]): Promise<InstalledPlugin[]> {
  return Promise.all(
    plugins.map(async (stored) => {
      try {
        const fresh = await loadManifest(stored.manifest_path, stored.enabled);
        // A manifest edited to another id is no longer this entry's plugin.
        if (fresh.plugin_id !== stored.plugin_id) throw new Error(`its id is now ${fresh.plugin_id}; link it again`);
        return { ...fresh, source: stored.source };
      } catch (error) {
        const { warnings: _old, ...rest } = stored;
        return { ...rest, warnings: [`${UNAVAILABLE_PREFIX}${(error as Error).message}`] };
      }
    }),
  );
}
