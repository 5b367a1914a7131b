// Bundles every entry point with esbuild: the extension host bundle, the CLI, the Scores
// webview (browser) and the in-VS Code integration test runner.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'es2022' };

await Promise.all([
  build({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview/main.js', platform: 'browser', format: 'iife' }),
  build({ ...common, entryPoints: ['src/webview/instance/main.ts'], outfile: 'dist/webview/instance.js', platform: 'browser', format: 'iife' }),
  build({ ...common, entryPoints: ['test/integration/runner.ts'], outfile: 'dist/test/runner.js', platform: 'node', format: 'cjs', external: ['vscode'] }),
]);
chmodSync('dist/cli.js', 0o755);
