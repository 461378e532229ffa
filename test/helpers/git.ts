/** git as the tests run it: found or not, and run with its own identity and no signing, whatever the user's config says. */
import { execFileSync } from 'node:child_process';

export function gitWorks(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function git(dir: string, ...args: string[]): string {
  const identity = ['-c', 'user.name=herdr test', '-c', 'user.email=test@herdr.invalid', '-c', 'commit.gpgsign=false'];
  return execFileSync('git', [...identity, '-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
