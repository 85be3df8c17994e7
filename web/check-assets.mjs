// Checks that the built assets checked in at ../crates/server/assets/ are what a fresh
// build of web/ gives (a change in web/src must be built and committed with it): builds
// into a temporary directory and compares byte for byte. Exit status 1 names the files
// that differ. Run by `npm run check-assets` and by the server's tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tmp = mkdtempSync(join(tmpdir(), 'chimere-assets-'));
try {
  execFileSync(process.execPath, ['build.mjs', tmp + '/'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stale = ['app.js', 'analysis.js', 'analysis-worker.js', 'problems.js', 'problems-worker.js', 'app.css', 'pieces.css'].filter(
    (f) => !readFileSync(join(tmp, f)).equals(readFileSync('../crates/server/assets/' + f)),
  );
  if (stale.length) {
    console.error(`crates/server/assets: ${stale.join(', ')} differ from a fresh build of web/: run \`cd web && npm ci && npm run build\` and commit the result`);
    process.exit(1);
  }
  console.log('crates/server/assets: app.js, analysis.js, analysis-worker.js, problems.js, problems-worker.js, app.css, pieces.css match a fresh build of web/');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
