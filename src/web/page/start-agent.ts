/**
 * "+ agent": starts an agent through the same calls a client makes: with a
 * worktree, `worktree.create` (a new workspace on a new branch) then
 * `agent.start` in its pane; without, `agent.start` in a new workspace.
 */
import { byId } from './format.js';
import type { Link } from './link.js';

/** herdr's agent kinds that start from their command (docs/protocol.md §10.1); any other name is tried as typed. */
const KINDS = ['claude', 'codex', 'gemini', 'pi', 'opencode', 'copilot', 'amp', 'droid', 'cline', 'qwen', 'kilo', 'cursor'];

interface WorktreeCreated {
  root_pane: { stable_id: string };
}

/** The servers the dialog offers (hello.hosts); its host field shows only when there are several. */
export function offerHosts(hosts: readonly string[]): void {
  byId('start-host').replaceChildren(...hosts.map((host) => Object.assign(document.createElement('option'), { value: host, textContent: host })));
  byId('start-host-label').hidden = hosts.length < 2;
}

export function setUpStartAgent(link: Link, say: (message: string) => void): void {
  const dialog = byId<HTMLDialogElement>('start-dialog');
  const form = byId<HTMLFormElement>('start-form');
  const error = byId('start-error');
  byId('agent-kinds').replaceChildren(...KINDS.map((kind) => Object.assign(document.createElement('option'), { value: kind })));
  byId('start-agent').addEventListener('click', () => {
    error.textContent = '';
    dialog.showModal();
  });
  form.addEventListener('submit', (event) => {
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value !== 'start') return;
    event.preventDefault();
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const kind = text('kind');
    const cwd = text('cwd');
    const name = text('name');
    const branch = text('branch');
    const target = text('host') || undefined;
    error.textContent = 'starting…';
    void (async () => {
      try {
        let paneId: string | undefined;
        if (data.get('worktree') !== null) {
          const made = await link.call<WorktreeCreated>('worktree.create', { ...(cwd ? { cwd } : {}), ...(branch ? { branch } : {}), focus: false }, target);
          paneId = made.root_pane.stable_id;
        }
        await link.call(
          'agent.start',
          { kind, ...(paneId ? { pane_id: paneId } : cwd ? { cwd } : {}), ...(name ? { name } : {}), focus: false, wait: false },
          target,
        );
        dialog.close();
        say(`started ${name || kind}${paneId ? ` in a new worktree (${paneId})` : ''}`);
      } catch (failure) {
        error.textContent = (failure as Error).message;
      }
    })();
  });
}
