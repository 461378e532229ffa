/**
 * The directory "+ agent" asks for, as the server will get it: absolute, `.`
 * and `..` taken out. On the local server an empty field is herdr web's own
 * directory, a relative path is taken from there and `~` is its user's home
 * (as a shell would read them where herdr web was started). A `--host`
 * server's directories are not known here: an empty field leaves the choice
 * to that server, and anything but an absolute path is refused.
 */

export type Directory = { cwd: string | undefined } | { problem: string };

/** `local`: herdr web's place, for the local server; undefined for a remote one. */
export function resolveDirectory(typed: string, local: { cwd: string; home: string } | undefined): Directory {
  if (typed === '') return { cwd: local?.cwd };
  if (typed.startsWith('/')) return { cwd: normalize(typed) };
  if (!local) return { problem: `${typed}: give an absolute path on a remote server (its directories are not known here)` };
  const home = typed === '~' || typed.startsWith('~/');
  if (typed.startsWith('~') && !home) return { problem: `${typed}: only your own home (~) is known here; give an absolute path` };
  return { cwd: normalize(home ? `${local.home}/${typed.slice(1)}` : `${local.cwd}/${typed}`) };
}

/** `/a/./b/../c/` → `/a/c`. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
