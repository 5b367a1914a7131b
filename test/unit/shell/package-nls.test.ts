import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

// Every user-visible string of the manifest lives in package.nls.json, so a translation (package.nls.<locale>.json)
// covers the whole UI. These checks keep a new command or setting from slipping in with a literal title.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest: unknown = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls: unknown = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));

/** Fields VS Code shows to the user wherever they appear under `contributes`. */
const VISIBLE_FIELDS = new Set([
  'title',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'label',
  'name',
  'contextualTitle',
  'category',
  'contents',
  'altText',
]);

const PLACEHOLDER = /^%([^%\s]+)%$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface StringAt {
  readonly where: string;
  readonly field: string;
  readonly value: string;
}

/** Every string in `value` with its JSON path and the name of the field that holds it (array items inherit it). */
function stringsIn(value: unknown, where: string, field: string, out: StringAt[]): StringAt[] {
  if (typeof value === 'string') out.push({ where, field, value });
  else if (Array.isArray(value)) value.forEach((item: unknown, index) => stringsIn(item, `${where}[${index}]`, field, out));
  else if (isRecord(value)) for (const [key, child] of Object.entries(value)) stringsIn(child, `${where}.${key}`, key, out);
  return out;
}

/** The English text of a manifest string: its package.nls.json message when it is a %key%, else itself. */
function localized(value: unknown): string {
  const text = String(value);
  const key = PLACEHOLDER.exec(text)?.[1];
  const message = key === undefined ? undefined : messages[key];
  return typeof message === 'string' ? message : text;
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  assert.ok(isRecord(value), `${what} is an object`);
  return value;
}

const pkg = asRecord(manifest, 'package.json');
const messages = asRecord(nls, 'package.nls.json');
const contributes = asRecord(pkg['contributes'], 'contributes');
const allStrings = stringsIn(pkg, '$', '', []);

describe('package.nls.json', () => {
  it('defines every %key% that package.json uses, as a non-empty string', () => {
    const missing: string[] = [];
    for (const { where, value } of allStrings) {
      const key = PLACEHOLDER.exec(value)?.[1];
      if (key === undefined) continue;
      const text = messages[key];
      if (typeof text !== 'string' || text.trim() === '') missing.push(`${where}: ${value}`);
    }
    assert.deepEqual(missing, []);
  });

  it('holds no key that package.json does not use', () => {
    const used = new Set<string>();
    for (const { value } of allStrings) {
      const key = PLACEHOLDER.exec(value)?.[1];
      if (key !== undefined) used.add(key);
    }
    assert.deepEqual(
      Object.keys(messages).filter((key) => !used.has(key)),
      [],
    );
  });

  it('leaves no user-visible string under contributes literal', () => {
    const literal = stringsIn(contributes, '$.contributes', '', [])
      .filter(({ field, value }) => VISIBLE_FIELDS.has(field) && !PLACEHOLDER.test(value))
      .map(({ where, value }) => `${where}: ${value}`);
    assert.deepEqual(literal, []);
  });

  it('localizes the marketplace name, description and the untrusted-workspace reason', () => {
    const capabilities = asRecord(pkg['capabilities'], 'capabilities');
    const untrusted = asRecord(capabilities['untrustedWorkspaces'], 'untrustedWorkspaces');
    for (const value of [pkg['displayName'], pkg['description'], untrusted['description']]) {
      assert.equal(typeof value, 'string');
      assert.match(String(value), PLACEHOLDER);
    }
  });
});

describe('Getting Started walkthrough', () => {
  const commandIds = new Set<string>();
  for (const command of Array.isArray(contributes['commands']) ? contributes['commands'] : []) {
    const id: unknown = asRecord(command, 'command')['command'];
    if (typeof id === 'string') commandIds.add(id);
  }
  // Every contributed view also gets a `<view id>.focus` command.
  const views = asRecord(contributes['views'], 'views');
  for (const container of Object.values(views)) {
    for (const view of Array.isArray(container) ? container : []) {
      const id: unknown = asRecord(view, 'view')['id'];
      if (typeof id === 'string') commandIds.add(`${id}.focus`);
    }
  }
  const walkthroughs = Array.isArray(contributes['walkthroughs']) ? contributes['walkthroughs'].map((w: unknown) => asRecord(w, 'walkthrough')) : [];
  const gettingStarted = walkthroughs.find((w) => w['id'] === 'sweExplore.gettingStarted');
  const steps = Array.isArray(gettingStarted?.['steps']) ? gettingStarted['steps'].map((s: unknown) => asRecord(s, 'step')) : [];

  it('is contributed with its steps', () => {
    assert.ok(gettingStarted, 'sweExplore.gettingStarted is contributed');
    assert.ok(steps.length >= 5, `${steps.length} steps`);
  });

  it('gives every step completion events and an existing markdown page', () => {
    for (const step of steps) {
      const events = step['completionEvents'];
      assert.ok(Array.isArray(events) && events.length > 0, `step ${String(step['id'])} has completionEvents`);
      const media = asRecord(step['media'], `media of step ${String(step['id'])}`);
      const markdown = media['markdown'];
      assert.equal(typeof markdown, 'string');
      assert.ok(existsSync(path.join(ROOT, String(markdown))), `${String(markdown)} exists`);
    }
  });

  it("only points at this extension's commands that exist", () => {
    const unknown: string[] = [];
    for (const step of steps) {
      const texts = [localized(step['description'])];
      const events = Array.isArray(step['completionEvents']) ? step['completionEvents'] : [];
      for (const event of events) if (typeof event === 'string' && event.startsWith('onCommand:')) texts.push(`command:${event.slice('onCommand:'.length)}`);
      for (const text of texts) {
        for (const match of text.matchAll(/command:(sweExplore\.[\w.]+)/g)) {
          const id = match[1];
          if (id !== undefined && !commandIds.has(id)) unknown.push(`${String(step['id'])}: ${id}`);
        }
      }
    }
    assert.deepEqual(unknown, []);
  });
});
