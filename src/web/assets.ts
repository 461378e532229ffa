/**
 * The page's files, built by `npm run build` (scripts/build-web.js: the page's
 * TypeScript and xterm.js bundled by esbuild into dist/web). Read once at
 * start and served from memory; nothing is fetched from anywhere else, and the
 * Content-Security-Policy says so to the browser.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** dist/src/web/assets.js → dist/web/. */
const ASSET_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, { file, type }] of Object.entries(FILES)) {
    try {
      assets.set(path, { body: readFileSync(`${ASSET_DIR}${file}`), type });
    } catch {
      throw new Error(`the page's ${file} is not built (${ASSET_DIR}): run npm run build`);
    }
  }
  return assets;
}

/**
 * Sent with every answer: scripts and connections from this origin only; never framed; nothing cached or
 * referred. Inline styles are allowed because xterm.js's renderer writes its theme into a <style> element.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};
