/**
 * herdr's methods this server answers `unsupported` (docs/protocol.md §5.5), and why: each acts
 * on the screen herdr draws, or hands its live panes to another process (`ping`'s capabilities
 * have a false flag for each kind, dialect.ts). Their params are in methods/screen-only.ts.
 */
export const SCREEN_ONLY_METHOD_NAMES = [
  'client.window_title.set',
  'client.window_title.clear',
  'popup.close',
  'agent.view.set',
  'agent.view.clear',
  'pane.graphics.info',
  'pane.graphics.set',
  'pane.graphics.clear',
  'server.live_handoff',
] as const;
export type ScreenOnlyMethod = (typeof SCREEN_ONLY_METHOD_NAMES)[number];

const NO_SCREEN = 'this server draws no screen and has no attached client window';

/** Why each is `unsupported` here: the error's message, and docs/protocol.md §5.5. */
export const SCREEN_ONLY_REASONS: Record<ScreenOnlyMethod, string> = {
  'client.window_title.set': `${NO_SCREEN} whose title it could set`,
  'client.window_title.clear': `${NO_SCREEN} whose title it could hand back`,
  'popup.close': `${NO_SCREEN}, so it never opens a popup to close`,
  'agent.view.set': `${NO_SCREEN}: an agent view filters and sorts herdr's sidebar, and there is none here (filter agent.list or session.snapshot instead)`,
  'agent.view.clear': `${NO_SCREEN}: an agent view filters and sorts herdr's sidebar, and there is none here`,
  'pane.graphics.info': `${NO_SCREEN}: image layers are placed over a pane where herdr draws it, and no cell size or visible surface exists here`,
  'pane.graphics.set': `${NO_SCREEN}: image layers are placed over a pane where herdr draws it, and nothing here would show one`,
  'pane.graphics.clear': `${NO_SCREEN}: no image layer is ever placed, so there is none to clear`,
  'server.live_handoff':
    'live handoff is not supported: the panes\' terminals are held by node-pty in this process\'s worker threads, and node-pty cannot take over a terminal another process opened; '
    + 'stop and start the server instead: its workspaces, layouts, ids and history come back, each pane with a fresh process (docs/persistence.md)',
};
