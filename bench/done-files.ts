/**
 * How the bench hears that a pane's command finished: the command creates a
 * file after its output (`: > DIR/N`, a shell builtin), and the bench waits on
 * the directory with inotify (fs.watch). No host is asked anything, so none
 * pays for the bench's polling, and every contender is noticed the same way.
 */
import { type FSWatcher, mkdirSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';

let runs = 0;

export interface DoneFiles {
  /** The shell words that mark pane `index` done. */
  command(index: number): string;
  /** Resolves once `count` panes marked themselves done. */
  readonly all: Promise<void>;
  close(): void;
}

export function doneFiles(parent: string, count: number, timeoutMs: number): DoneFiles {
  const dir = join(parent, `done-${process.pid}-${++runs}`);
  mkdirSync(dir);
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    watcher?.close();
    clearTimeout(timer);
  };
  const all = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (readdirSync(dir).length < count) return;
      close();
      resolve();
    };
    watcher = watch(dir, check);
    timer = setTimeout(() => {
      close();
      reject(new Error(`${readdirSync(dir).length} of ${count} panes finished within ${timeoutMs} ms`));
    }, timeoutMs);
    check();
  });
  return { command: (index) => `: > ${join(dir, String(index))}`, all, close };
}
