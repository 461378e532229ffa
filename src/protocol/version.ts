import { readFileSync } from 'node:fs';

/** The package version, as `ping` and `--version` report it. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The revision of herdr's current protocol whose methods and shapes we follow where we
 * have them (`session.snapshot`'s `protocol`; docs/protocol.md §13.5). herdr's schema at
 * protocol 21 is where the agent API, layouts, worktrees and the snapshot were taken from.
 */
export const PROTOCOL = 21;
