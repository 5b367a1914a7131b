// Bundles every entry point with esbuild: the extension host bundle, the CLI, the lazily loaded
// schemas, the webviews (browser) and the in-VS Code integration test runner.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'es2022' };

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
const node = { ...common, platform: 'node', format: 'cjs', plugins: [lazySchemas] };

await Promise.all([
  build({ ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  // The CLI reads explorer runs on worker threads (src/data/workspace/explorerRunPool.ts): the worker is its own file beside it.
  build({ ...node, entryPoints: ['src/data/workspace/explorerRunWorker.ts'], outfile: 'dist/explorerRunWorker.js' }),
  build({ ...node, entryPoints: ['src/data/formats/schemas.ts'], outfile: 'dist/schemas.js' }),
  build({ ...node, entryPoints: ['src/data/formats/schemas.ts'], outfile: 'dist/test/schemas.js' }),
  build({ ...common, entryPoints: ['src/webview/scores/main.ts'], outfile: 'dist/webview/scores.js', platform: 'browser', format: 'iife' }),
  build({ ...common, entryPoints: ['src/webview/instance/main.ts'], outfile: 'dist/webview/instance.js', platform: 'browser', format: 'iife' }),
  build({ ...common, entryPoints: ['src/webview/leaderboard/main.ts'], outfile: 'dist/webview/leaderboard.js', platform: 'browser', format: 'iife' }),
  build({ ...node, entryPoints: ['test/integration/runner.ts'], outfile: 'dist/test/runner.js', external: ['vscode'] }),
]);
chmodSync('dist/cli.js', 0o755);
