/**
 * Editing another program's configuration the way `herdr integration` promises: a backup of
 * every file before herdr first changes it (`<file>.herdr-backup`, kept across reinstalls, so it
 * holds the file as it was before herdr), writes that replace the file whole (a temporary file
 * renamed over it), and nothing written when nothing changes (installing twice is installing once).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class IntegrationError extends Error {}

export type JsonObject = Record<string, unknown>;

export const BACKUP_SUFFIX = '.herdr-backup';

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A JSON object file; `{}` when absent. A file that is not a JSON object is not touched. */
export function readJsonObject(path: string): JsonObject {
  const text = readText(path);
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new IntegrationError(`${path} is not valid JSON (${(error as Error).message}); nothing was changed`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new IntegrationError(`${path} does not hold a JSON object; nothing was changed`);
  return value as JsonObject;
}

/** Writes `text` to `path` unless it is there already; backs the old file up the first time. True when written. */
export function writeFile(path: string, text: string, mode?: number): boolean {
  const before = readText(path);
  if (before === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  if (before !== undefined && !existsSync(path + BACKUP_SUFFIX)) copyFileSync(path, path + BACKUP_SUFFIX);
  const temporary = `${path}.herdr-${process.pid}`;
  writeFileSync(temporary, text, mode === undefined ? {} : { mode });
  renameSync(temporary, path);
  return true;
}

export const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Removes a file herdr wrote; true when it was there. */
export function removeFile(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}

/**
 * A hooks map (`{"<Event>": [{matcher?, hooks: [{type: "command", command, …}]}]}`, Claude Code's
 * shape, which qwen, gemini and codex share): herdr's entry for each event added, the user's kept.
 * Herdr's entries are the ones whose command runs `marker`.
 */
export function withHooks(hooks: JsonObject, events: readonly string[], entry: (event: string) => JsonObject, marker: string): JsonObject {
  const out: JsonObject = { ...withoutHooks(hooks, marker) };
  for (const event of events) {
    const list = Array.isArray(out[event]) ? [...(out[event] as unknown[])] : [];
    list.push(entry(event));
    out[event] = list;
  }
  return out;
}

/** The hooks map without herdr's entries (and without events left empty by that). */
export function withoutHooks(hooks: JsonObject, marker: string): JsonObject {
  const out: JsonObject = {};
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) {
      out[event] = value;
      continue;
    }
    const kept = value.filter((group) => !JSON.stringify(group).includes(marker));
    if (kept.length > 0) out[event] = kept;
  }
  return out;
}

/** Whether the hooks map holds herdr's entry for every one of `events`. */
export function hasHooks(hooks: JsonObject, events: readonly string[], marker: string): boolean {
  return events.every((event) => Array.isArray(hooks[event]) && (hooks[event] as unknown[]).some((group) => JSON.stringify(group).includes(marker)));
}

/** A marker herdr puts on a TOML line it adds, with the line it replaced (to put back on uninstall). */
const TOML_MARK = ' # herdr-integration';

/**
 * Sets `key = value` in `[table]` of a TOML text: the table made when missing, a line of the
 * key replaced (and remembered on the marker, to be put back). Plain tables only.
 */
export function setTomlKey(text: string, table: string, key: string, value: string): string {
  const lines = text.split('\n');
  const header = `[${table}]`;
  let start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) {
    if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
    lines.push(header);
    start = lines.length - 1;
  }
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end] ?? '')) end++;
  const wanted = `${key} = ${value}${TOML_MARK}`;
  for (let i = start + 1; i < end; i++) {
    const line = lines[i] ?? '';
    if (new RegExp(`^\\s*${key}\\s*=`).test(line)) {
      if (line.includes(TOML_MARK)) lines[i] = `${key} = ${value}${line.slice(line.indexOf(TOML_MARK))}`;
      else lines[i] = `${wanted} (was: ${line.trim()})`;
      return lines.join('\n');
    }
  }
  lines.splice(start + 1, 0, wanted);
  return lines.join('\n');
}

/** The TOML text without herdr's lines: each put back as it was, or dropped when herdr added it. */
export function withoutTomlMarks(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const at = line.indexOf(TOML_MARK);
      if (at < 0) return [line];
      const was = /\(was: (.*)\)\s*$/.exec(line.slice(at))?.[1];
      return was === undefined ? [] : [was];
    })
    .join('\n');
}
