/**
 * The layering the house style asks for, checked on the source text: no import cycles, a pure
 * core, the shell reaching the core and the data layer only through their public entry points,
 * and the webviews reaching the core only through src/shared.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const f of sourceFiles(full)) out.push(f);
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Relative imports of a file (value and type imports alike), resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|require\('(\.[^']+)'\)/g)) {
    const spec = match[1] ?? match[2]!;
    const base = path.resolve(path.dirname(file), spec);
    for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) {
          out.push(candidate);
          break;
        }
      } catch {
        // not this candidate
      }
    }
  }
  return out;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string): string => path.relative(SRC, f);

test('no import cycles in src/', () => {
  const state = new Map<string, 'active' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    state.set(file, 'active');
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'active') cycles.push([...trail.slice(trail.indexOf(next)), file, next].map(rel).join(' → '));
      else if (state.get(next) === undefined) visit(next, [...trail, file]);
    }
    state.set(file, 'done');
  };
  for (const file of files) if (state.get(file) === undefined) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('src/core imports neither vscode nor the file system, nor other layers', () => {
  for (const file of files.filter((f) => rel(f).startsWith('core'))) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /from '(vscode|node:fs|fs|node:fs\/promises|fs\/promises)'/, rel(file));
    for (const target of graph.get(file)!) assert.ok(rel(target).startsWith('core'), `${rel(file)} imports ${rel(target)}`);
  }
});

test('the extension and the CLI reach src/data only through its index', () => {
  for (const file of files.filter((f) => /^(extension|cli)\//.test(rel(f)))) {
    for (const target of graph.get(file)!) {
      if (rel(target).startsWith('data/')) assert.equal(rel(target), path.join('data', 'index.ts'), `${rel(file)} imports ${rel(target)}`);
    }
  }
});

test('the extension and the CLI reach src/core only through its index', () => {
  for (const file of files.filter((f) => /^(extension|cli)\//.test(rel(f)))) {
    for (const target of graph.get(file)!) {
      if (rel(target).startsWith('core/')) assert.equal(rel(target), path.join('core', 'index.ts'), `${rel(file)} imports ${rel(target)}`);
    }
  }
});

test('src/shared reaches src/core through its index, or core/types.ts for the vocabulary the webviews need at run time', () => {
  // A value imported through the index would pull the metric kernels' module-level tables into
  // every webview bundle; core/types.ts holds only names, budgets and profiles.
  for (const file of files.filter((f) => rel(f).startsWith('shared/'))) {
    for (const target of graph.get(file)!) {
      if (rel(target).startsWith('core/')) assert.ok([path.join('core', 'index.ts'), path.join('core', 'types.ts')].includes(rel(target)), `${rel(file)} imports ${rel(target)}`);
    }
  }
});

test('the webviews reach src/core only through src/shared, and neither the extension nor the data layer', () => {
  for (const file of files.filter((f) => rel(f).startsWith('webview/'))) {
    for (const target of graph.get(file)!) assert.match(rel(target), /^(webview|shared)\//, `${rel(file)} imports ${rel(target)}`);
  }
});

test('src/shared and src/webview import no vscode and no node modules', () => {
  for (const file of files.filter((f) => /^(shared|webview)\//.test(rel(f)))) {
    assert.doesNotMatch(readFileSync(file, 'utf8'), /from '(vscode|node:[a-z_/]+)'/, rel(file));
  }
});

/**
 * Inside src/extension, arrows point down: `base/` (VS Code plumbing, ids, the webview host,
 * navigation) imports no other folder of the extension; `state/` (the store) only `base/`; `model/`
 * (everything derived) only `state/` and `base/`; the feature folders (editor, trees, scores,
 * instance, leaderboard, audit, compare, links, workspace, commands) import the layers below and,
 * without cycles, each other; only extension.ts (activation) imports everything. So a feature may
 * read the model, but the model never imports a feature, and the store never imports the model.
 */
const EXTENSION_LAYERS: Readonly<Record<string, number>> = { base: 0, state: 1, model: 2 };
const FEATURE_LAYER = 3;
const ROOT_LAYER = 4;

/** The folder of a file directly under src/extension ('' for extension.ts), e.g. `model` for model/slices/compare.ts. */
function extensionFolder(file: string): string {
  const parts = path.relative(path.join(SRC, 'extension'), file).split(path.sep);
  return parts.length === 1 ? '' : parts[0]!;
}

function extensionLayer(folder: string): number {
  return folder === '' ? ROOT_LAYER : (EXTENSION_LAYERS[folder] ?? FEATURE_LAYER);
}

test('inside src/extension no import points up: base ← state ← model ← features ← extension.ts', () => {
  for (const file of files.filter((f) => rel(f).startsWith(`extension${path.sep}`))) {
    const from = extensionFolder(file);
    for (const target of graph.get(file)!) {
      if (!rel(target).startsWith(`extension${path.sep}`)) continue;
      const to = extensionFolder(target);
      assert.ok(extensionLayer(to) <= extensionLayer(from) && (to !== '' || from === ''), `${rel(file)} (${from || 'root'}) imports ${rel(target)} (${to || 'root'}), a layer above it`);
    }
  }
});

test('the feature folders of src/extension import each other without a cycle', () => {
  const edges = new Map<string, Set<string>>();
  for (const file of files.filter((f) => rel(f).startsWith(`extension${path.sep}`))) {
    const from = extensionFolder(file);
    if (extensionLayer(from) !== FEATURE_LAYER) continue;
    for (const target of graph.get(file)!) {
      const to = rel(target).startsWith(`extension${path.sep}`) ? extensionFolder(target) : '';
      if (to !== from && extensionLayer(to) === FEATURE_LAYER) {
        let set = edges.get(from);
        if (set === undefined) edges.set(from, (set = new Set()));
        set.add(to);
      }
    }
  }
  const cycles: string[] = [];
  const state = new Map<string, 'active' | 'done'>();
  const visit = (folder: string, trail: string[]): void => {
    state.set(folder, 'active');
    for (const next of edges.get(folder) ?? []) {
      if (state.get(next) === 'active') cycles.push([...trail.slice(trail.indexOf(next)), folder, next].join(' → '));
      else if (state.get(next) === undefined) visit(next, [...trail, folder]);
    }
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) if (state.get(folder) === undefined) visit(folder, []);
  assert.deepEqual(cycles, []);
});
