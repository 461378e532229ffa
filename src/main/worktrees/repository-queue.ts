/**
 * One worktree change at a time per repository: a create checks that the
 * branch is free and the path unused, then adds; two creates of one branch
 * at once must not both pass the check. Other repositories are not held up.
 */
export class RepositoryQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(repositoryKey: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(repositoryKey) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(repositoryKey, tail);
    void tail.then(() => {
      if (this.tails.get(repositoryKey) === tail) this.tails.delete(repositoryKey);
    });
    return result;
  }
}
