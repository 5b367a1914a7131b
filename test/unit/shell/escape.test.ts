/** Escaping of data-derived text for terminals, Markdown, notification-like surfaces and CSV. */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { csvNumberCell, csvTextCell, escapeForTerminal, escapeMarkdownText, jsonForTerminal, safeNotificationText } from '../../../src/shared/escape';

describe('escapeForTerminal', () => {
  it('shows newline, carriage return, tab and ESC escaped', () => {
    assert.equal(escapeForTerminal('a\nb\rc\td\u001b[31me'), 'a\\nb\\rc\\td\\x1b[31me');
  });

  it('escapes OSC (set title) and BEL, DEL and the C1 CSI', () => {
    assert.equal(escapeForTerminal('\u001b]0;pwned\u0007x\u007f\u009b2J'), '\\x1b]0;pwned\\x07x\\x7f\\x9b2J');
  });

  it('escapes Unicode line/paragraph separators and bidi controls', () => {
    assert.equal(escapeForTerminal('a\u2028b\u2029c\u202ed\u2066e\u2069f\u200fg'), 'a\\u2028b\\u2029c\\u202ed\\u2066e\\u2069f\\u200fg');
  });

  it('escapes lone surrogates but keeps well-formed astral characters', () => {
    assert.equal(escapeForTerminal('x\ud800y'), 'x\\ud800y');
    assert.equal(escapeForTerminal('x\udc00y'), 'x\\udc00y');
    assert.equal(escapeForTerminal('🔭 ok'), '🔭 ok');
  });

  it('leaves ordinary ids, paths and non-ASCII text unchanged', () => {
    for (const text of ['django__django-11099', 'src/a b/c.py', 'C:\\repo\\x.py', 'naïve 日本語 — ✓']) assert.equal(escapeForTerminal(text), text);
  });

  it('a forged problem line stays on the line of the real one', () => {
    const forged = 'bench.jsonl:3:1: error: snapshot of x\n/etc/passwd:1:1: error: forged';
    const out = escapeForTerminal(forged);
    assert.equal(out.split('\n').length, 1);
    assert.ok(out.startsWith('bench.jsonl:3:1: error:'));
  });
});

describe('jsonForTerminal', () => {
  it('escapes what JSON.stringify leaves raw (C1, DEL, separators, bidi) and round-trips', () => {
    const value = { id: 'a\u009b2J\u007f\u2028\u202e\n\u001b', n: -0.5 };
    assert.match(JSON.stringify(value), /\u009b/, 'JSON.stringify alone leaves the C1 CSI raw');
    const json = jsonForTerminal(value);
    assert.equal(json, '{"id":"a\\u009b2J\\u007f\\u2028\\u202e\\n\\u001b","n":-0.5}');
    assert.deepEqual(JSON.parse(json), value);
  });
});

describe('escapeMarkdownText', () => {
  it('backslash-escapes link, image, code, emphasis, HTML and icon syntax', () => {
    assert.equal(escapeMarkdownText('[x](command:y)'), '\\[x\\]\\(command\\:y\\)');
    assert.equal(escapeMarkdownText('![i](https://e/x.png)'), '\\!\\[i\\]\\(https\\:\\/\\/e\\/x\\.png\\)');
    assert.equal(escapeMarkdownText('`a` *b* _c_ <img> $(zap) \\'), '\\`a\\` \\*b\\* \\_c\\_ \\<img\\> \\$\\(zap\\) \\\\');
  });

  it('breaks autolinks and entities', () => {
    const out = escapeMarkdownText('see https://evil.example or www.evil.example &#91;');
    assert.doesNotMatch(out, /https:\/\//);
    assert.doesNotMatch(out, /www\./);
    assert.doesNotMatch(out, /(^|[^\\])&/);
  });

  it('shows control characters escaped (no new Markdown block from data)', () => {
    assert.equal(escapeMarkdownText('a\n# b'), 'a\\\\n\\# b');
  });
});

describe('safeNotificationText', () => {
  it('breaks `](` and `$(` with an invisible zero-width space and keeps the text readable', () => {
    assert.equal(safeNotificationText('[x](command:y)'), '[x]\u200b(command:y)');
    assert.equal(safeNotificationText('$(zap) hi'), '$\u200b(zap) hi');
    assert.doesNotMatch(safeNotificationText('[a](https://e)'), /\]\(/);
  });

  it('data ending in `]` or `$` cannot join following message text into a link or icon', () => {
    assert.doesNotMatch(`see ${safeNotificationText('[x]')}(command:y)`, /\]\(/);
    assert.doesNotMatch(`${safeNotificationText('a$')}(zap)`, /\$\(/);
  });

  it('leaves ordinary ids unchanged (no backslashes in plain text) and shows newlines escaped', () => {
    assert.equal(safeNotificationText('django__django-11099'), 'django__django-11099');
    assert.equal(safeNotificationText('a\nb\u202e'), 'a\\nb\\u202e');
  });
});

describe('CSV cells', () => {
  it('prefixes text cells that a spreadsheet would run as a formula', () => {
    assert.equal(csvTextCell('=HYPERLINK("http://e","x")'), `"'=HYPERLINK(""http://e"",""x"")"`);
    assert.equal(csvTextCell('+1'), "'+1");
    assert.equal(csvTextCell('-2+3'), "'-2+3");
    assert.equal(csvTextCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvTextCell('\tcmd'), "'\tcmd");
    assert.equal(csvTextCell('\rcmd'), "'\\rcmd");
  });

  it('quotes cells with quotes or commas and leaves plain ones alone', () => {
    assert.equal(csvTextCell('a,b'), '"a,b"');
    assert.equal(csvTextCell('a"b'), '"a""b"');
    assert.equal(csvTextCell('django__django-11099'), 'django__django-11099');
  });

  it('escapes every control but the tab, DEL, C1, line separators and bidi controls: a cell never spans lines', () => {
    assert.equal(csvTextCell('a\nb'), 'a\\nb');
    assert.equal(csvTextCell('a\r\nb'), 'a\\r\\nb');
    assert.equal(csvTextCell('x\u001b]0;t\u0007\u007f\u009b2J'), 'x\\x1b]0;t\\x07\\x7f\\x9b2J');
    assert.equal(csvTextCell('a\u2028b\u2029c\u202ed\u2066e'), 'a\\u2028b\\u2029c\\u202ed\\u2066e');
    assert.equal(csvTextCell('a\tb'), 'a\tb');
    assert.equal(csvTextCell('=a\nb,c'), `"'=a\\nb,c"`);
  });

  it('writes finite numbers, negative ones included, as numbers; non-finite ones as neutral text', () => {
    assert.equal(csvNumberCell(-0.5), '-0.5');
    assert.equal(csvNumberCell(0.1234567890123), '0.1234567890123');
    assert.equal(csvNumberCell(-Infinity), "'-Infinity");
    assert.equal(csvNumberCell(Number.NaN), 'NaN');
    assert.equal(csvNumberCell(undefined), 'undefined');
  });
});

/**
 * The extension needs VS Code to run, so its surfaces are checked in the source: a regression
 * that interpolates data into a notification unescaped, or makes the hover trusted, fails here.
 */
describe('extension surfaces route data through the escapes', () => {
  const EXTENSION = path.join(__dirname, '..', '..', '..', 'src', 'extension');
  const read = (file: string): string => readFileSync(path.join(EXTENSION, file), 'utf8');
  /** Every source file of the extension, subfolders included (`audit/auditCommands.ts`). */
  const extensionFiles = (dir = ''): string[] =>
    readdirSync(path.join(EXTENSION, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? extensionFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  /** Interpolations that are message wording or numbers, not data (`warnings`: a count of problems in fixed words). */
  const NOT_DATA = /^(what|RESOLVE_FAILURE_TEXT\[resolved\.reason\]|budget|safe\(.*\)|span\.(start|end)|TRANSCRIPT_EXTENSIONS\.join\('\/'\)|written\.records|loaded\.removals\.size|warnings)$/;
  const holes = (template: string): string[] => [...template.matchAll(/\$\{([^}]*(?:\}[^}]*)*?)\}(?=[^}]|$)/g)].map((m) => m[1]!);

  it('every ${…} in a notification is escaped with safe() or is not data', () => {
    for (const file of extensionFiles()) {
      for (const call of read(file).matchAll(/show(?:Information|Warning|Error)Message\(`([^`]*)`/g)) {
        for (const hole of holes(call[1]!)) assert.match(hole, NOT_DATA, `${file}: unescaped \${${hole}} in a notification`);
      }
    }
  });

  it('every ${…} in a quick-pick or input-box title, placeholder or prompt is escaped with safe() or is not data', () => {
    let seen = 0;
    for (const file of extensionFiles()) {
      for (const option of read(file).matchAll(/\b(?:title|placeHolder|prompt): `([^`]*)`/g)) {
        seen++;
        for (const hole of holes(option[1]!)) assert.match(hole, NOT_DATA, `${file}: unescaped \${${hole}} in a title`);
      }
    }
    assert.ok(seen >= 3, `${seen} titles found`);
  });

  it('the hover is untrusted, has no theme icons or HTML and appends data only through escapeMarkdownText', () => {
    const hover = read('editor/hover.ts');
    assert.doesNotMatch(hover, /appendText\(/);
    assert.doesNotMatch(hover, /isTrusted\s*=\s*true|supportThemeIcons\s*=\s*true|supportHtml\s*=\s*true/);
    assert.match(hover, /new vscode\.MarkdownString\(undefined, false\)/);
    // The one trusted part: a command link of constant text whose only holes are a command id and
    // arguments passed through encodeURIComponent, in a string that enables that command alone.
    for (const trusted of hover.matchAll(/isTrusted\s*=\s*(\{[^}]*\})/g)) assert.match(trusted[1]!, /^\{ enabledCommands: \[COMMANDS\.\w+\] \}$/);
    for (const link of hover.matchAll(/appendMarkdown\((`\[[^`]*`)\)/g)) {
      for (const hole of holes(link[1]!)) assert.match(hole, /^COMMANDS\.\w+$|^args$/, `\${${hole}} in a command link`);
      assert.match(hover, /const args = encodeURIComponent\(JSON\.stringify\(/);
    }
    for (const call of hover.matchAll(/appendMarkdown\(([^)]*)\)/g)) {
      if (call[1]!.startsWith('`[')) continue;
      assert.match(call[1]!, /^escapeMarkdownText\(|^'[^'$]*'$/, `appendMarkdown(${call[1]}) is neither escaped nor a constant`);
    }
  });

  it('quick picks and tree items show escaped labels and keep the real value aside', () => {
    const commands = read('commands/navigationCommands.ts') + read('commands/selectionCommands.ts');
    assert.doesNotMatch(commands, /showQuickPick\(store\.explorers[,)]/, 'explorer names as raw quick-pick labels');
    assert.doesNotMatch(commands, /return picked\?\.label;/, 'an escaped label is not the instance id');
    assert.doesNotMatch(commands, /label: (id|model),/);
    const trees = read('trees/instancesTree.ts') + read('trees/regionsTree.ts');
    assert.doesNotMatch(trees, /new vscode\.TreeItem\((node\.repo|node\.instanceId|`[^`]*region\.path)/);
    assert.doesNotMatch(read('editor/statusBar.ts'), /\$\{view\.instance\.instanceId\}/);
  });
});
