/**
 * The same clean environment for every contender: an empty HOME, /bin/sh
 * without rc files, one PATH, one locale, and the same generated input.
 * (A user's ~/.bashrc that runs e.g. `pyenv init` in a hundred shells at
 * once made tmux look four times slower than it is.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TERMINAL_RESET } from './corpus/cells.js';
import { type CorpusName, generateCorpus } from './corpus/corpora.js';

export const SHELL = '/bin/sh';
export const PROMPT = '$ ';
/** The line each flood input ends with; a pane is done when it is readable. */
export const END_MARK = 'END-OF-FLOOD';
export const COLS = 120;
export const ROWS = 40;

export class BenchEnvironment {
  readonly dir = mkdtempSync(join(tmpdir(), 'herdr-bench-'));
  readonly home = join(this.dir, 'home');
  private readonly inputs = new Map<string, string>();

  constructor() {
    mkdirSync(this.home);
  }

  /** The environment every server, shell and pane program starts with. */
  get env(): Record<string, string> {
    return {
      HOME: this.home,
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      SHELL,
      PS1: PROMPT,
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
    };
  }

  /**
   * A file of about `bytes` of corpus `corpus` (variant `variant`: the same
   * bytes every run), then a terminal reset and END_MARK on a line of its own.
   */
  floodInput(bytes: number, corpus: CorpusName = 'plain', variant = 0): string {
    const key = `${corpus}-${variant}-${bytes}`;
    const existing = this.inputs.get(key);
    if (existing) return existing;
    const path = join(this.dir, `flood-${key}.txt`);
    writeFileSync(path, Buffer.concat([generateCorpus(corpus, bytes, variant), Buffer.from(`${TERMINAL_RESET}${END_MARK}\n`)]));
    this.inputs.set(key, path);
    return path;
  }

  /** A command that cats the flood input of `bytes` over and over: output that never ends. */
  endlessFlood(bytes: number): string {
    return `while :; do cat ${this.floodInput(bytes)}; done`;
  }

  /** A text file in the bench directory; its path. */
  textFile(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  /** A shell script in the bench directory (for pane commands). */
  script(name: string, body: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return path;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
