/**
 * "+ agent": starts an agent through the same calls a client makes: with a
 * worktree, `worktree.create` (a new workspace on a new branch) then
 * `agent.start` in its pane; without, `agent.start` in a new workspace.
 *
 * Where it starts: the directory typed, else where `herdr web` runs (its own
 * directory, as the CLI starts panes where it is run), a relative path taken
 * from there. On a `--host` server this machine's directory means nothing: an
 * empty field leaves it to that server, and a path must be absolute.
 */
import { AGENT_PROGRAMS, isAgentKind } from '../../protocol/agent-kinds.js';
import { byId, shortPath } from './format.js';
import type { Link } from './link.js';
import { LOCAL_HOST } from '../wire.js';
import { resolveDirectory } from './directory.js';

/** herdr web's own place (hello): the default directory on the local server, and `~`. */
export interface WebPlace {
  cwd: string;
  home: string;
}

let place: WebPlace = { cwd: '/', home: '/' };

/** The servers the dialog offers (hello.hosts); its host field shows only when there are several. */
export function offerHosts(hosts: readonly string[], at: WebPlace): void {
  place = at;
  byId('start-host').replaceChildren(...hosts.map((host) => Object.assign(document.createElement('option'), { value: host, textContent: host })));
  byId('start-host-label').hidden = hosts.length < 2;
  sayDefaultDirectory();
}

/** The host the dialog's field names (the first server when there is one). */
function chosenHost(): string {
  return byId<HTMLSelectElement>('start-host').value || LOCAL_HOST;
}

/** The field's hint: what an empty directory means on the chosen server. */
function sayDefaultDirectory(): void {
  const host = chosenHost();
  const local = host === LOCAL_HOST;
  const input = byId<HTMLInputElement>('start-cwd');
  input.placeholder = local ? `default: ${shortPath(place.cwd)}` : `default: ${host}'s server directory`;
  byId('start-cwd-hint').textContent = local
    ? `Empty: ${place.cwd}, where herdr web runs. A relative path starts there; ~ is ${place.home}.`
    : `Empty: the directory ${host}'s server runs in. On ${host} give an absolute path.`;
}

export function setUpStartAgent(link: Link, say: (message: string) => void): void {
  const dialog = byId<HTMLDialogElement>('start-dialog');
  const form = byId<HTMLFormElement>('start-form');
  const error = byId('start-error');
  byId('agent-kinds').replaceChildren(
    ...Object.entries(AGENT_PROGRAMS).map(([kind, program]) => Object.assign(document.createElement('option'), { value: kind, label: program === kind ? kind : `${kind} (runs ${program})` })),
  );
  byId('start-host').addEventListener('change', sayDefaultDirectory);
  byId('start-agent').addEventListener('click', () => {
    error.textContent = '';
    sayDefaultDirectory();
    dialog.showModal();
  });
  form.addEventListener('submit', (event) => {
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value !== 'start') return;
    event.preventDefault();
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const typed = text('kind');
    const name = text('name');
    const branch = text('branch');
    const host = chosenHost();
    const target = text('host') || undefined;
    const inWorktree = data.get('worktree') !== null;
    const where = resolveDirectory(text('cwd'), host === LOCAL_HOST ? place : undefined);
    if ('problem' in where) {
      error.textContent = where.problem;
      return;
    }
    const { cwd } = where;
    if (inWorktree && cwd === undefined) {
      error.textContent = `a worktree needs its repository's directory (on ${host}, an absolute path)`;
      return;
    }
    // A kind of the server's table starts as that kind; anything else is a program and its arguments, split at spaces.
    const kind = typed.toLowerCase();
    const launch = isAgentKind(kind) ? { kind } : { command: typed.split(/\s+/) };
    error.textContent = 'starting…';
    void (async () => {
      try {
        let paneId: string | undefined;
        if (inWorktree) {
          const made = await link.call('worktree.create', { cwd, ...(branch ? { branch } : {}), focus: false }, target);
          paneId = made.root_pane.stable_id;
        }
        const { agent } = await link.call(
          'agent.start',
          { ...launch, ...(paneId ? { pane_id: paneId } : cwd === undefined ? {} : { cwd }), ...(name ? { name } : {}), focus: false, wait: false },
          target,
        );
        dialog.close();
        say(`started ${name || agent.agent} in ${agent.terminal_id}${paneId ? ', a new worktree' : ''} (${agent.cwd ?? cwd ?? ''})`);
      } catch (failure) {
        error.textContent = (failure as Error).message;
      }
    })();
  });
}
