// `npm run test:electron`: the same integration test module as the code-server run
// (dist/test/runner.js, exporting `run()`), in desktop VS Code 1.100.3 via @vscode/test-electron.
// It downloads VS Code from update.code.visualstudio.com into .vscode-test/, so it only works where
// that is reachable (not on the offline build machine, where `npm run test:e2e` covers the same
// tests). On a Linux box without a display run it under xvfb-run. Needs `npm run build` first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const extensionTestsPath = path.join(repoRoot, 'dist/test/runner.js');
const workspace = path.resolve(process.env.SWE_EXPLORE_WORKSPACE ?? path.join(repoRoot, 'demo'));
const resultsDir = path.join(repoRoot, 'test-results');

if (!fs.existsSync(extensionTestsPath)) {
  console.error(`${path.relative(repoRoot, extensionTestsPath)} is missing; run npm run build first`);
  process.exit(1);
}
fs.mkdirSync(resultsDir, { recursive: true });
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swe-explore-electron-'));

let exitCode = 0;
try {
  await runTests({
    version: '1.100.3', // the VS Code that code-server 4.100.3 ships, so both runs test the same API
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    // Same variables the code-server harness gives the extension host.
    extensionTestsEnv: { SWE_EXPLORE_TEST_WORKSPACE: workspace, SWE_EXPLORE_TEST_RESULTS: resultsDir },
    launchArgs: [
      fs.existsSync(workspace) ? workspace : repoRoot,
      '--disable-extensions', // other installed extensions; the one under development still loads
      `--user-data-dir=${userDataDir}`, // fresh profile each run (test-electron adds the other flags)
    ],
  });
  console.log('ok   integration tests (desktop VS Code 1.100.3)');
} catch (err) {
  console.error(`FAIL integration tests (desktop VS Code 1.100.3): ${err?.message ?? err}`);
  exitCode = 1;
} finally {
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
process.exit(exitCode);
