import { readFileSync } from 'node:fs';

/** The package version, as `ping` and `--version` report it. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

