/** `npm run bench`: every benchmark, printing figures beside their budgets and tmux's. */
import { panesBench } from './panes.bench.js';

console.log('# herdr benchmarks');
await panesBench();
