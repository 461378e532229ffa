/** CSS imported by the page is bundled by esbuild (scripts/build-web.js), not read by TypeScript. */
declare module '*.css' {}
