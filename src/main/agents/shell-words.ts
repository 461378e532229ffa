/**
 * An argv as a line a POSIX shell (sh, bash, zsh, dash; fish reads the same quoting)
 * splits back into exactly those words: agent.start into a pane whose shell is already
 * running types this line. Words with control characters are refused before this
 * (a newline would end the line early).
 */
const PLAIN_WORD = /^[A-Za-z0-9_/.,:=@%+-]+$/;

export function shellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}

const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacter(word: string): boolean {
  return CONTROL.test(word);
}
