/** `window.herdrWeb` as the page defines it (src/web/page/main.ts), for page.evaluate in the browser tests and the bench. */
import type { PageProbe } from '../src/web/wire.js';

declare global {
  interface Window {
    herdrWeb: PageProbe;
  }
}
