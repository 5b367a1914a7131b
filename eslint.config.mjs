// ESLint flat config. Not type-aware on purpose: `npm run lint` stays a few seconds on a 2-core machine, and
// `tsc --noEmit` (npm run typecheck) already does the type checking.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const UNBOUNDED_SPREAD_MESSAGE = 'never spread an unbounded array into a call: arguments go on the stack and a large array throws RangeError; use a loop';

export default defineConfig(
  {
    // Generated, installed or data: nothing here is hand-written source.
    ignores: ['dist/**', 'out/**', 'node_modules/**', 'tools/vscode-runtime/**', 'test/fixtures/**', 'test/unit/fixtures-data/**', 'demo/**', '.bench/**', 'test-results/**', '.vscode-test/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      // Only the .mjs scripts and tests need these (TypeScript resolves globals itself); they all run in Node.
      globals: globals.node,
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement', message: UNBOUNDED_SPREAD_MESSAGE },
        { selector: "CallExpression[callee.object.name='Math'] > SpreadElement", message: UNBOUNDED_SPREAD_MESSAGE },
        { selector: "CallExpression[callee.object.name='String'][callee.property.name=/^(fromCharCode|fromCodePoint)$/] > SpreadElement", message: UNBOUNDED_SPREAD_MESSAGE },
      ],
      // House style: named exports only, so a rename is a compile error everywhere it is used.
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
      // The extension and webview report through the UI or an output channel; console.warn/error remain as a last resort.
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // Matching control characters is deliberate here: data text is escaped before it reaches a terminal or the UI.
      'no-control-regex': 'off',
    },
  },
  {
    // Command-line tools, build scripts and test runners talk to a terminal.
    files: ['src/cli/**', 'scripts/**', 'test/**'],
    rules: {
      'no-console': 'off',
    },
  },
  {
    // Playwright callbacks (page.evaluate / waitForFunction) run in the browser, so their bodies use DOM globals.
    files: ['test/e2e/**/*.mjs', 'scripts/screenshot.mjs'],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
  },
  {
    // Tool configuration files must default-export their config.
    files: ['eslint.config.mjs'],
    rules: {
      'no-restricted-exports': 'off',
    },
  },
);
