/**
 * `--focus` / `--no-focus` as both grammars write them (docs/protocol.md §11.3): herdr
 * 0.2.0's CLI focused what it made unless `--no-focus`; herdr's current CLI takes
 * `--focus` too. Neither flag keeps the command's old default.
 */
import type { Command } from 'commander';

export interface FocusFlags {
  focus?: boolean;
}

export function focusOptions(cmd: Command, what: string): Command {
  // Both defined: commander then sets no default, so "neither" stays visible as undefined.
  return cmd.option('--focus', `focus ${what}`).option('--no-focus', `do not focus ${what}`);
}

export const focusOf = (flags: FocusFlags, byDefault: boolean): boolean => flags.focus ?? byDefault;
