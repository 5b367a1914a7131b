// Bundles every entry point with esbuild: the extension host bundle, the CLI, the lazily loaded
// schemas, the webviews (browser) and the in-VS Code integration test runner.
//
//   node scripts/build.mjs [--production]   (npm run build; vscode:prepublish adds --production)
//
// `buildCli` is also what the CLI tests spawn (test/cli/cliBundle.ts), so they run the CLI exactly
// as it ships.
import { build } from 'esbuild';
import { chmodSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const common = (production) => ({ bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'es2022', absWorkingDir: ROOT });

/**
 * zod is only needed for a line the fast checks reject, so the schemas (and zod with them) are a
 * separate file, `schemas.js` beside each Node bundle, that `lazySchemas()` requires on first use:
 * a clean run never even parses it (compiling it was a third of the CLI's start-up).
 */
const lazySchemas = {
  name: 'lazy-schemas',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/schemas$/ }, (args) => (args.kind === 'require-call' && args.importer.endsWith('lineSink.ts') ? { path: './schemas.js', external: true } : undefined));
  },
};
const node = (production) => ({ ...common(production), platform: 'node', format: 'cjs', plugins: [lazySchemas] });

/** The CLI (`outDir`/cli.js, executable) and the schemas it loads lazily (`outDir`/schemas.js). */
export async function buildCli(outDir, { production = false } = {}) {
  await Promise.all([
    build({ ...node(production), entryPoints: ['src/cli/main.ts'], outfile: path.join(outDir, 'cli.js'), banner: { js: '#!/usr/bin/env node' } }),
    build({ ...node(production), entryPoints: ['src/data/formats/schemas.ts'], outfile: path.join(outDir, 'schemas.js') }),
    // The CLI reads explorer runs on worker threads (src/data/workspace/explorerRunPool.ts): the worker is its own file beside it.
    build({ ...node(production), entryPoints: ['src/data/workspace/explorerRunWorker.ts'], outfile: path.join(outDir, 'explorerRunWorker.js') }),
  ]);
  chmodSync(path.join(outDir, 'cli.js'), 0o755);
}

/** Everything `dist/` holds. */
export async function buildAll({ production = false } = {}) {
  const dist = path.join(ROOT, 'dist');
  const web = { ...common(production), platform: 'browser', format: 'iife' };
  await Promise.all([
    buildCli(dist, { production }),
    build({ ...node(production), entryPoints: ['src/extension/extension.ts'], outfile: path.join(dist, 'extension.js'), external: ['vscode'] }),
    build({ ...node(production), entryPoints: ['src/data/formats/schemas.ts'], outfile: path.join(dist, 'test/schemas.js') }),
    build({ ...web, entryPoints: ['src/webview/scores/main.ts'], outfile: path.join(dist, 'webview/scores.js') }),
    build({ ...web, entryPoints: ['src/webview/instance/main.ts'], outfile: path.join(dist, 'webview/instance.js') }),
    build({ ...web, entryPoints: ['src/webview/trajectory/main.ts'], outfile: path.join(dist, 'webview/trajectory.js') }),
    build({ ...web, entryPoints: ['src/webview/leaderboard/main.ts'], outfile: path.join(dist, 'webview/leaderboard.js') }),
    build({ ...node(production), entryPoints: ['test/integration/runner.ts'], outfile: path.join(dist, 'test/runner.js'), external: ['vscode'] }),
  ]);
}

// Run as a script (not imported by a test): the real path, since Node resolves links in the main module's.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll({ production: process.argv.includes('--production') });
}
