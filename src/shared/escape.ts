/**
 * Escaping of text that comes from data files (instance ids, explorer names, region paths, model
 * names) before it reaches a surface that interprets some of its characters.
 *
 * Data is hostile until shown otherwise: an instance id can carry an ANSI escape sequence, a
 * newline that forges a `file:line:col: error:` line, a bidi override that reorders what a reader
 * sees, a Markdown link to a `command:` URI, or `$(codicon)` syntax. Each surface gets the escaping
 * that matches what it interprets:
 *
 * - {@link escapeForTerminal}: CLI table cells and problem lines (terminals interpret controls).
 * - {@link jsonForTerminal}: CLI JSON lines (round-trip exactly, nothing raw a terminal acts on).
 * - {@link escapeMarkdownText}: text appended to a `MarkdownString` with `appendMarkdown` (hovers).
 * - {@link safeNotificationText}: plain-text surfaces that still parse `[label](command:…)` links
 *   or `$(icon)` syntax — notifications, quick-pick items, tree items, status bar, CodeLens titles.
 * - {@link csvTextCell} / {@link csvNumberCell}: CSV cells (spreadsheets run formulas; terminals
 *   show CSVs too, so controls are escaped there as well).
 *
 * Pure TypeScript (no `vscode`, no `fs`) so the CLI, the extension and the webview share it.
 * Escaping is for display only: it is not meant to be reversed.
 */

/**
 * Characters shown as an escape rather than written: C0 controls (which include `\n`, `\r`, `\t`
 * and ESC), DEL, C1 controls (`\x9b` is a one-byte CSI on some terminals), the Unicode line and
 * paragraph separators (editors and some terminals break lines there), the bidirectional
 * embedding/override/isolate controls and marks (they reorder displayed text: "Trojan Source"),
 * and lone UTF-16 surrogates (they cannot be encoded and become U+FFFD silently).
 */
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(character: string): string {
  const named = NAMED_ESCAPES[character];
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Shows every control, line-separator and bidi-control character of `text` as a visible escape
 * (`\n`, `\r`, `\t`, `\x1b`, `\x9b`, `\u2028`, `\u202e`, …); everything else is unchanged. The
 * result holds no character below U+0020, none in U+007F–U+009F and no U+2028/2029 or bidi
 * control, so it prints as exactly one line and cannot move the cursor, recolour the terminal,
 * set its title (OSC) or reorder what follows.
 *
 * Backslashes are kept as they are so Windows paths stay readable; the output is for reading,
 * not for parsing back.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE_CHARACTER, escapeOne);
}

/** What JSON.stringify leaves raw but a terminal interprets: DEL, C1 controls, separators, bidi. */
const JSON_UNESCAPED_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value)` with the characters it leaves raw but a terminal interprets (DEL, C1
 * controls such as the one-byte CSI `\x9b`, U+2028/2029, bidi controls) written as `\uXXXX`
 * escapes. JSON.stringify already escapes C0 controls and lone surrogates; these others can only
 * occur inside strings, where the escape decodes to the same character, so the output parses to
 * the same value and is still one line.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNESCAPED_UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Every ASCII punctuation character. CommonMark lets a backslash escape any of them, and escaping
 * all of them (not only `[`, `]`, `(`, `)`) also defeats GFM autolinks (`https://…`, `www.…`,
 * `a@b.c`), HTML tags and entities (`<`, `&`), tables (`|`), emphasis and `$(icon)` syntax.
 */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Text from data made safe to pass to `MarkdownString.appendMarkdown`: rendered, it reads exactly
 * as `text` (controls shown as escapes, see {@link escapeForTerminal}), and it can form no link,
 * command URI, image, HTML, emphasis, code span, heading or `$(codicon)`. Newlines in data are
 * shown as `\n`, so data cannot start a Markdown block either.
 *
 * The MarkdownString itself must stay untrusted (`isTrusted` unset) and without
 * `supportThemeIcons` / `supportHtml` when it carries data.
 */
export function escapeMarkdownText(text: string): string {
  return escapeForTerminal(text).replace(MARKDOWN_PUNCTUATION, '\\$&');
}

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text from data made safe for VS Code surfaces that are plain text except for two bits of syntax:
 * `[label](https:|command:|file:…)` links (notifications) and `$(icon)` codicons (status bar
 * text, quick-pick labels/descriptions/details, CodeLens titles). Those surfaces show backslashes
 * literally, so the Markdown escape of {@link escapeMarkdownText} would garble every id; instead a
 * zero-width space (U+200B) is put after every `]` and every `$`. Both syntaxes need the two
 * characters adjacent (`](`, `$(`), so no link or icon can form — not within the data, and not
 * where the data meets the surrounding message text either — while the text looks unchanged.
 * Controls and line breaks are shown escaped (see {@link escapeForTerminal}), so a notification
 * is one line as written.
 */
export function safeNotificationText(text: string): string {
  return escapeForTerminal(text).replace(/[\]$]/g, `$&${ZERO_WIDTH_SPACE}`);
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** {@link UNSAFE_CHARACTER} except the tab, which a CSV cell may hold as it is. */
const CSV_UNSAFE_CHARACTER =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The one encoder of a CSV cell holding text from data (every CSV the CLI or the extension
 * writes goes through it). A CSV is `cat`-ed in terminals and opened in spreadsheets alike, so:
 * a leading `=`, `+`, `-`, `@`, tab or carriage return gets a `'` in front so spreadsheets show
 * it as text instead of running it as a formula (OWASP advice); every control character but the
 * tab (C0 including CR and LF, DEL, C1), U+2028/2029 and bidi controls is written as a visible
 * escape (`\n`, `\x1b`, `\u202e`, see {@link escapeForTerminal}), so no cell spans lines or acts
 * on a terminal; then the cell is quoted (inner `"` doubled) when it holds `"` or `,` (RFC 4180).
 */
export function csvTextCell(text: string): string {
  const neutral = FORMULA_TRIGGER.test(text) ? `'${text}` : text;
  const visible = neutral.replace(CSV_UNSAFE_CHARACTER, escapeOne);
  return /[",]/.test(visible) ? `"${visible.replace(/"/g, '""')}"` : visible;
}

/**
 * A CSV cell holding a number at full precision. Finite numbers (including negative ones such as
 * `-0.5`) are written as they are — a spreadsheet reads them as numbers; anything else (NaN,
 * ±Infinity, a missing value) is written as neutralised text so `-Infinity` is not a formula.
 */
export function csvNumberCell(value: number | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : csvTextCell(String(value));
}
