/** The ids module and the manifest agree: every command, setting, view, context key and tree-item value. */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { COMMANDS, CONTEXT_KEYS, PANELS, SETTINGS, SETTINGS_SECTION, TREE_ITEMS, VIEWS, WALKTHROUGH } from '../../../src/extension/base/ids';

const ROOT = path.join(__dirname, '..', '..', '..');

interface Manifest {
  readonly contributes: {
    readonly commands: readonly { readonly command: string }[];
    readonly configuration: { readonly properties: Record<string, unknown> } | readonly { readonly properties: Record<string, unknown> }[];
    readonly views: Record<string, readonly { readonly id: string }[]>;
    readonly menus: Record<string, readonly { readonly command: string; readonly when?: string }[]>;
    readonly keybindings: readonly { readonly command: string; readonly when?: string }[];
  };
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const sorted = (values: Iterable<string>): string[] => [...values].sort();

/** Every `when` clause of the manifest (menus and keybindings). */
function whenClauses(): string[] {
  const out: string[] = [];
  for (const entries of Object.values(manifest.contributes.menus)) for (const entry of entries) if (entry.when !== undefined) out.push(entry.when);
  for (const binding of manifest.contributes.keybindings) if (binding.when !== undefined) out.push(binding.when);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('ids (src/extension/base/ids.ts) and package.json', () => {
  it('contribute the same commands', () => {
    assert.deepEqual(sorted(Object.values(COMMANDS)), sorted(manifest.contributes.commands.map((c) => c.command)));
  });

  it('every menu entry and keybinding names a known command', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    for (const entries of Object.values(manifest.contributes.menus)) for (const entry of entries) assert.ok(known.has(entry.command), entry.command);
    for (const binding of manifest.contributes.keybindings) assert.ok(known.has(binding.command), binding.command);
  });

  it('contribute the same settings', () => {
    const configuration = manifest.contributes.configuration;
    const properties = Array.isArray(configuration)
      ? configuration.flatMap((c: { properties: Record<string, unknown> }) => Object.keys(c.properties))
      : Object.keys((configuration as { properties: Record<string, unknown> }).properties);
    assert.deepEqual(sorted(Object.values(SETTINGS).map((key) => `${SETTINGS_SECTION}.${key}`)), sorted(properties));
  });

  it('contribute the same views', () => {
    assert.deepEqual(sorted(Object.values(VIEWS)), sorted(Object.values(manifest.contributes.views).flatMap((list) => list.map((v) => v.id))));
  });

  it('name in when clauses only the context keys, views, panels (activeWebviewPanelId) and tree items the extension sets', () => {
    const known = new Set<string>([...Object.values(CONTEXT_KEYS), ...Object.values(VIEWS), ...Object.values(PANELS), ...Object.values(TREE_ITEMS)]);
    for (const clause of whenClauses()) {
      // Regular-expression matches (`viewItem =~ /^sweExplore\.(core|optional)Region$/`) are checked against the tree items below.
      const plain = clause.replace(/\/[^/]*\//g, '');
      for (const name of plain.match(/sweExplore\.[A-Za-z.]+/g) ?? []) assert.ok(known.has(name), `${name} in "${clause}"`);
      for (const pattern of clause.match(/\/([^/]*)\//g) ?? []) {
        const regex = new RegExp(pattern.slice(1, -1));
        assert.ok(
          Object.values(TREE_ITEMS).some((item) => regex.test(item)),
          `${pattern} in "${clause}" matches no tree item`,
        );
      }
    }
    for (const key of Object.values(CONTEXT_KEYS))
      assert.ok(
        whenClauses().some((clause) => clause.includes(key)),
        `${key} is set but never read`,
      );
  });

  it('no other file of src/extension spells an id as a string literal', () => {
    for (const file of sourceFiles(path.join(ROOT, 'src', 'extension'))) {
      if (file.endsWith(path.join('base', 'ids.ts'))) continue;
      const text = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*\*)/.test(line))
        .join('\n');
      // Theme colours are built from their short names (`sweExplore.${id}`), which the manifest's colour list defines.
      const literal = text.match(/['`]sweExplore\.(?!\$\{)[A-Za-z.]+/);
      assert.equal(literal, null, `${path.relative(ROOT, file)} spells ${literal?.[0] ?? ''}`);
    }
  });
});

describe('walkthrough and removal keys (issue 16)', () => {
  const contributes = (manifest as unknown as { contributes: { walkthroughs: readonly { id: string; steps: readonly { media: { markdown?: string } }[] }[] } }).contributes;
  it('WALKTHROUGH names the contributed walkthrough, and its media exist', () => {
    assert.deepEqual(
      contributes.walkthroughs.map((w) => w.id),
      [WALKTHROUGH],
    );
    for (const step of contributes.walkthroughs[0]!.steps) if (step.media.markdown !== undefined) assert.ok(readFileSync(path.join(ROOT, step.media.markdown), 'utf8').length > 0);
  });
  it("the keys that are Find's toggles (Alt+R/C/P) stand back while Find is open", () => {
    for (const binding of manifest.contributes.keybindings as unknown as readonly { key: string; when?: string }[]) {
      if (/alt\+[rcp]$/.test(binding.key)) assert.match(binding.when ?? '', /!findWidgetVisible && !findInputFocussed/, binding.key);
      assert.notEqual(binding.key, 'shift+alt+d', "Shift+Alt+D is VS Code's language detection");
    }
  });
});
