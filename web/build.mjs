// Builds the front end: app.js (esbuild, from src/main.ts) and app.css, pieces.css
// (build-css.mjs) into ../crates/server/assets/, or into the directory given as argument
// (check-assets.mjs builds into a temporary one). `npm run build` type-checks first.
import { buildSync } from 'esbuild';

const out = process.argv[2] || '../crates/server/assets/';
buildSync({
  entryPoints: ['src/main.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  outfile: out + 'app.js',
  logLevel: 'info',
});
// The analysis board: its page and its worker (which bundles the WebAssembly glue of
// crates/server/assets/wasm/, made by wasm/build.sh).
buildSync({
  entryPoints: ['src/analysis/main.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  outfile: out + 'analysis.js',
  logLevel: 'info',
});
buildSync({
  entryPoints: ['src/analysis/worker.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  outfile: out + 'analysis-worker.js',
  logLevel: 'info',
});
// The problems page: its page and its solver's worker (the same WebAssembly module).
for (const [entry, file] of [['src/pages/problem.ts', 'problems.js'], ['src/pages/problem-worker.ts', 'problems-worker.js']]) {
  buildSync({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', target: 'es2020', outfile: out + file, logLevel: 'info' });
}
await import('./build-css.mjs');
