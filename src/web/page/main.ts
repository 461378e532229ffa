/**
 * The page's entry point: wires the link to herdr web, the grid, the large
 * pane, the filters and the "+ agent" dialog. The URL's hash names the pane
 * open large (`#pane=local/w1:p3`), so the browser's back button returns to
 * the grid and a link can open one pane.
 */
import '@xterm/xterm/css/xterm.css';
import './style.css';
import type { AgentStatus } from '../../protocol/enums.js';
import type { MenuOption } from '../../protocol/menu.js';
import type { HostState, PageProbe, RuleActivity, ServerMessage, TileRow } from '../wire.js';
import { age, byId, element } from './format.js';
import { type Filters, STATUS_LABELS, STATUS_ORDER, TileGrid, stateChips } from './grid.js';
import { Link } from './link.js';
import { PaneView } from './pane-view.js';
import { TileCanvas } from './tile-canvas.js';
import { offerHosts, setUpStartAgent } from './start-agent.js';

const filters: Filters = { statuses: new Set(), agent: '', text: '' };
let rows: TileRow[] = [];
let hosts: HostState[] = [];
let rules: RuleActivity = { fired: 0 };
let grid: TileGrid | undefined;
let paneView: PaneView | undefined;
let statusTimer: number | undefined;

function say(message: string): void {
  const line = byId('status-line');
  line.textContent = message;
  window.clearTimeout(statusTimer);
  statusTimer = window.setTimeout(() => (line.textContent = ''), 6000);
}

/** How long a notification's toast stays (a click closes it sooner). */
const TOAST_MS = 8000;

/**
 * A notification (notification.show) as a toast, in the corner it asks for (top right when it
 * names none); newer ones stack under older ones there.
 */
function toast({ host, notification }: Extract<ServerMessage, { t: 'notification' }>): void {
  const position = notification.position ?? 'top-right';
  let corner = document.querySelector<HTMLElement>(`.toasts[data-position="${position}"]`);
  if (!corner) {
    corner = element('div', 'toasts');
    corner.dataset.position = position;
    document.body.append(corner);
  }
  const from = [hosts.length > 1 ? host : '', notification.stable_id ?? notification.pane_id ?? ''].filter(Boolean).join(' · ');
  const box = element('div', 'toast');
  box.setAttribute('role', 'alert');
  box.append(element('strong', 'toast-title', notification.title));
  if (notification.body !== undefined) box.append(element('div', 'toast-body', notification.body));
  if (from) box.append(element('div', 'toast-from', from));
  const remove = () => box.remove();
  box.addEventListener('click', remove);
  corner.append(box);
  window.setTimeout(remove, TOAST_MS);
}

/**
 * Answers a blocked agent's menu through the approval inbox: the option clicked is typed only if
 * the server still sees the same menu (approvals.answer checks the question's hash), never into
 * whatever the agent asked since the page drew it.
 */
async function answer(row: TileRow, option: MenuOption): Promise<void> {
  try {
    const { approvals } = await link.call('approvals.list', {}, row.host);
    const approval = approvals.find((candidate) => candidate.stable_id === row.pane);
    if (!approval) return say(`${row.pane} no longer waits for an answer`);
    if (!approval.options.some((candidate) => candidate.key === option.key && candidate.label === option.label)) {
      return say(`${row.pane} asks something else now: look again`);
    }
    await link.call('approvals.answer', { pane_id: row.pane, option: option.key, question_hash: approval.question_hash }, row.host);
    say(`answered ${option.key}. ${option.label} in ${row.pane}`);
  } catch (error) {
    say((error as Error).message);
  }
}

function start(hello: Extract<ServerMessage, { t: 'hello' }>): void {
  document.body.classList.toggle('read-only', hello.readOnly);
  TileCanvas.fps = hello.fps;
  offerHosts(hello.hosts, { cwd: hello.cwd, home: hello.home });
  if (grid) return;
  grid = new TileGrid(byId('grid'), link, { open: (row) => (location.hash = `pane=${encodeURIComponent(row.key)}`), answer: (row, option) => void answer(row, option) }, hello.readOnly);
  paneView = new PaneView(link, hello.readOnly, { answer: (row, option) => void answer(row, option), say, closed: () => (location.hash = '') });
  stateChips(byId('state-filters'), filters, render);
  byId<HTMLSelectElement>('agent-filter').addEventListener('change', (event) => {
    filters.agent = (event.target as HTMLSelectElement).value;
    render();
  });
  byId<HTMLInputElement>('text-filter').addEventListener('input', (event) => {
    filters.text = (event.target as HTMLInputElement).value.trim();
    render();
  });
  byId<HTMLSelectElement>('tile-size').addEventListener('change', (event) => {
    byId('grid').style.setProperty('--tile-width', (event.target as HTMLSelectElement).value);
  });
  if (!hello.readOnly) setUpStartAgent(link, say);
  window.addEventListener('hashchange', route);
}

function render(): void {
  if (!grid) return;
  const shown = grid.show(rows, filters, hosts.length > 1);
  byId('empty').hidden = rows.length > 0;
  const counts = new Map<AgentStatus, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  byId('counts').replaceChildren(
    ...(Object.keys(STATUS_ORDER) as AgentStatus[])
      .filter((status) => counts.has(status))
      .map((status) => Object.assign(element('span', `count ${status}`, `${counts.get(status)} ${STATUS_LABELS[status]}`), { title: `${status} panes` })),
    element('span', 'count shown', shown === rows.length ? '' : `(${shown} shown)`),
  );
  agentChoices();
  const last = rules.last;
  byId('rules').textContent = last ? `rules fired ${rules.fired} · last ${last.rule} ${last.what} ${last.outcome} ${age(last.at, Date.now())} ago` : '';
  byId('hosts').replaceChildren(
    ...hosts
      .filter((host) => hosts.length > 1 || host.status !== 'live')
      .map((host) => Object.assign(element('span', `host ${host.status}`, host.name), { title: host.message ?? host.status })),
  );
  route();
}

/** The agent filter offers the agents there are (and keeps the chosen one while it is gone). */
function agentChoices(): void {
  const select = byId<HTMLSelectElement>('agent-filter');
  const agents = [...new Set(rows.flatMap((row) => (row.agent ? [row.agent] : [])).concat(filters.agent ? [filters.agent] : []))].sort();
  const have = [...select.options].slice(1).map((option) => option.value);
  if (have.join('\n') === agents.join('\n')) return;
  select.replaceChildren(Object.assign(document.createElement('option'), { value: '', textContent: 'every agent' }), ...agents.map((agent) => Object.assign(document.createElement('option'), { value: agent, textContent: agent })));
  select.value = filters.agent;
}

/** Opens, updates or closes the large pane as the hash says. */
function route(): void {
  if (!paneView) return;
  const key = new URLSearchParams(location.hash.slice(1)).get('pane');
  const row = key === null ? undefined : rows.find((candidate) => candidate.key === key);
  if (!row) {
    if (paneView.key !== undefined) {
      if (key !== null) say(`${key} is gone`);
      paneView.close();
      if (key !== null) location.hash = '';
    }
    return;
  }
  if (paneView.key === row.key) paneView.update(row);
  else paneView.open(row);
}

const link = new Link({
  hello: start,
  fleet: (message) => {
    rows = message.rows;
    hosts = message.hosts;
    rules = message.rules;
    render();
  },
  notification: (message) => toast(message),
  connection: (up) => {
    document.body.classList.toggle('offline', !up);
    if (!up) say('reconnecting to herdr web…');
  },
});
link.connect();

/** What tests and the bench read (through Playwright): the grid's order and its streams. */
declare global {
  interface Window {
    herdrWeb: PageProbe;
  }
}
window.herdrWeb = {
  order: () => [...document.querySelectorAll<HTMLElement>('#grid .tile')].map((tile) => tile.dataset.key ?? ''),
  streaming: () => grid?.streaming ?? 0,
  tileFrames: () => TileCanvas.frames,
  tileLines: (key) => grid?.tile(key)?.screenLines() ?? [],
  tileMetrics: (key) => grid?.tile(key)?.metrics(),
  paneLines: () => paneView?.screenLines() ?? [],
  toasts: () => [...document.querySelectorAll<HTMLElement>('.toast')].map((box) => box.textContent ?? ''),
};
