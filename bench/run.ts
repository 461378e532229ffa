/** `npm run bench`: every benchmark, printing figures beside their budgets and tmux's. */
import { agentsBench } from './agents.bench.js';
import { eventsBench } from './events.bench.js';
import { panesBench } from './panes.bench.js';

console.log('# herdr benchmarks');
const only = process.argv[2];
if (!only || only === 'panes') await panesBench();
if (!only || only === 'events') await eventsBench();
if (!only || only === 'agents') await agentsBench();
