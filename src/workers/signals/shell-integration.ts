/**
 * OSC 133 shell integration (docs/protocol.md §10.6): `A` prompt start, `B` input
 * start, `C` command output starts, `D;<exit>` command finished. Shells send `D`
 * at every prompt, also when no command ran (the first prompt, an empty line,
 * where `$?` is still the previous command's), so a `D` counts only when a `C`
 * came since the last one.
 */
export const SHELL_INTEGRATION_OSC = 133;

export class ShellIntegration {
  private commandStarted = false;

  /** The exit code a payload (after `133;`) reports, if it finishes a command. */
  accept(data: string): number | undefined {
    const [mark, code] = data.split(';');
    if (mark === 'C') this.commandStarted = true;
    if (mark !== 'D') return undefined;
    const endsCommand = this.commandStarted;
    this.commandStarted = false;
    if (!endsCommand || code === undefined || !/^-?\d{1,10}$/.test(code)) return undefined;
    const exitCode = Number(code);
    return Number.isSafeInteger(exitCode) ? exitCode : undefined;
  }
}
