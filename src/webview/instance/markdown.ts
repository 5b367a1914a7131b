/**
 * A deliberately small, safe Markdown reader for issue texts: it turns Markdown into a tree of
 * plain objects, which {@link ./renderMarkdown} turns into DOM nodes with text nodes only.
 *
 * Safety is structural, not a filter: the tree has no node kind that can carry markup, so raw HTML
 * (`<script>`, `<img onerror>`, any block) is ordinary text; a link keeps its URL only to show it as
 * a tooltip (nothing navigates, whatever the scheme: `command:`, `javascript:`…); an image is its
 * alt text and is never fetched.
 *
 * Supported: ATX headings, paragraphs (line breaks kept, as GitHub shows issue text), fenced and
 * indented code blocks, bullet and ordered lists (nested by indentation), block quotes, thematic
 * breaks, code spans, `*`/`_` emphasis and strong emphasis, inline links and autolinks, images,
 * backslash escapes and the common character references. Anything else stays text.
 *
 * Work is linear in the input: nesting is capped, searches for closing delimiters remember their
 * failures, and link labels/destinations have a length cap.
 */

export type MdInline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'emphasis'; readonly children: readonly MdInline[] }
  | { readonly kind: 'strong'; readonly children: readonly MdInline[] }
  /** Shown as its text with the URL as a tooltip; never a navigable anchor. */
  | { readonly kind: 'link'; readonly url: string; readonly children: readonly MdInline[] }
  /** Shown as its alt text; never loaded. */
  | { readonly kind: 'image'; readonly alt: string; readonly url: string }
  | { readonly kind: 'break' };

export type MdBlock =
  | { readonly kind: 'paragraph'; readonly children: readonly MdInline[] }
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4 | 5 | 6; readonly children: readonly MdInline[] }
  | { readonly kind: 'codeBlock'; readonly info: string; readonly text: string }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly start: number; readonly items: readonly (readonly MdBlock[])[] }
  | { readonly kind: 'quote'; readonly children: readonly MdBlock[] }
  | { readonly kind: 'rule' };

/** Deeper block nesting (quotes in lists in quotes…) is shown as plain paragraphs. */
export const MAX_BLOCK_DEPTH = 8;
/** Deeper inline nesting (emphasis in links in emphasis…) is shown as text. */
export const MAX_INLINE_DEPTH = 6;
/** Longest link label / destination looked for; a longer one stays text. */
const MAX_LINK_PART = 2_000;

/** Parses Markdown source into blocks. Never throws. */
export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  return parseBlocks(lines, 0);
}

// ---------------------------------------------------------------------------------------------
// Blocks

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;

interface ListMarker {
  readonly indent: number;
  readonly ordered: boolean;
  /** The bullet character, or the ordered delimiter ('.' or ')'). */
  readonly symbol: string;
  readonly start: number;
  /** Column where the item's content starts. */
  readonly contentIndent: number;
  readonly rest: string;
}

function expandTabs(line: string): string {
  // Only leading tabs matter for indentation; a tab counts as four columns.
  if (!line.includes('\t')) return line;
  const match = /^[ \t]*/.exec(line)![0];
  return match.replace(/\t/g, '    ') + line.slice(match.length);
}

function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === ' ') n++;
  return n;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function listMarker(line: string): ListMarker | null {
  const m = LIST_ITEM.exec(line);
  if (m === null) return null;
  const indent = m[1]!.length;
  const marker = m[2]!;
  const spacing = m[3]!.length;
  const ordered = /\d/.test(marker[0]!);
  const afterMarker = indent + marker.length;
  // More than four spaces after the marker: the content starts one column after it (the rest is indented code).
  const contentIndent = spacing === 0 || spacing > 4 ? afterMarker + 1 : afterMarker + spacing;
  return {
    indent,
    ordered,
    symbol: ordered ? marker[marker.length - 1]! : marker,
    start: ordered ? Number(marker.slice(0, -1)) : 1,
    contentIndent,
    rest: line.slice(Math.min(line.length, afterMarker + spacing)),
  };
}

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * An ATX heading: up to three spaces, 1–6 `#`, then the end of the line or spaces/tabs and the
 * content; trailing spaces/tabs and a closing run of `#` (at the start or after a space) are not
 * content. Scanned by hand: the regex form (`(.*?)[ \t]*$`, `(?:^|[ \t]+)#+$`) retried every
 * position of a long run of spaces (quadratic). Like `.` in that regex, a line or paragraph
 * separator (U+2028/2029) means the line is no heading.
 */
function headingOf(line: string): { readonly level: 1 | 2 | 3 | 4 | 5 | 6; readonly content: string } | null {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) i++;
  const hashes = i;
  while (i < line.length && line.charCodeAt(i) === 0x23) i++;
  const level = i - hashes;
  if (level < 1 || level > 6) return null;
  if (i < line.length && !isSpaceOrTab(line.charCodeAt(i))) return null;
  if (line.includes('\u2028') || line.includes('\u2029')) return null;
  let end = line.length;
  while (end > i && isSpaceOrTab(line.charCodeAt(end - 1))) end--;
  while (i < end && isSpaceOrTab(line.charCodeAt(i))) i++;
  let content = line.slice(i, end);
  let closing = content.length;
  while (closing > 0 && content.charCodeAt(closing - 1) === 0x23) closing--;
  if (closing < content.length) {
    if (closing === 0) content = '';
    else if (isSpaceOrTab(content.charCodeAt(closing - 1))) {
      while (closing > 0 && isSpaceOrTab(content.charCodeAt(closing - 1))) closing--;
      content = content.slice(0, closing);
    }
  }
  return { level: level as 1 | 2 | 3 | 4 | 5 | 6, content };
}

/** Lines that end a paragraph without a blank line. */
function interruptsParagraph(line: string): boolean {
  if (FENCE.test(line) || headingOf(line) !== null || RULE.test(line) || QUOTE.test(line)) return true;
  const marker = listMarker(line);
  // As on GitHub: bullets interrupt a paragraph, ordered lists only when they start at 1; empty items never.
  return marker !== null && marker.rest.trim() !== '' && (!marker.ordered || marker.start === 1);
}

function parseBlocks(rawLines: readonly string[], depth: number): MdBlock[] {
  const lines = rawLines.map(expandTabs);
  const blocks: MdBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence !== null && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const inner = lines[i]!;
        const trimmed = inner.trim();
        if (trimmed.length >= marker.length && trimmed[0] === marker[0] && /^(`+|~+)$/.test(trimmed) && indentOf(inner) <= 3) {
          i++;
          break;
        }
        body.push(inner.slice(Math.min(indent, indentOf(inner))));
        i++;
      }
      blocks.push({ kind: 'codeBlock', info: fence[3]!.trim(), text: body.join('\n') });
      continue;
    }
    const heading = headingOf(line);
    if (heading !== null) {
      blocks.push({ kind: 'heading', level: heading.level, children: parseInlines(heading.content, 0) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (indentOf(line) >= 4) {
      const body: string[] = [];
      while (i < lines.length && (isBlank(lines[i]!) || indentOf(lines[i]!) >= 4)) {
        body.push(lines[i]!.slice(Math.min(4, indentOf(lines[i]!))));
        i++;
      }
      while (body.length > 0 && isBlank(body[body.length - 1]!)) body.pop();
      blocks.push({ kind: 'codeBlock', info: '', text: body.join('\n') });
      continue;
    }
    if (depth < MAX_BLOCK_DEPTH && QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        body.push(lines[i]!.replace(QUOTE, ''));
        i++;
      }
      blocks.push({ kind: 'quote', children: parseBlocks(body, depth + 1) });
      continue;
    }
    const marker = depth < MAX_BLOCK_DEPTH ? listMarker(line) : null;
    if (marker !== null) {
      i = parseList(lines, i, marker, depth, blocks);
      continue;
    }
    // Paragraph: up to a blank line or a line that starts another block.
    const body: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]!) && !interruptsParagraph(lines[i]!) && indentOf(lines[i]!) < 4 + indentOf(line)) {
      body.push(lines[i]!.trim());
      i++;
    }
    // An indented line inside a paragraph is still paragraph text (lazy continuation).
    while (i < lines.length && !isBlank(lines[i]!) && !interruptsParagraph(lines[i]!)) {
      body.push(lines[i]!.trim());
      i++;
    }
    blocks.push({ kind: 'paragraph', children: parseInlines(body.join('\n'), 0) });
  }
  return blocks;
}

function sameListKind(a: ListMarker, b: ListMarker): boolean {
  return a.ordered === b.ordered && a.symbol === b.symbol;
}

/** Reads a list starting at `from`; returns the index of the first line after it. */
function parseList(lines: readonly string[], from: number, first: ListMarker, depth: number, out: MdBlock[]): number {
  const items: MdBlock[][] = [];
  let i = from;
  let marker: ListMarker | null = first;
  while (marker !== null) {
    const itemLines: string[] = [marker.rest];
    const contentIndent = marker.contentIndent;
    i++;
    let previousBlank = false;
    while (i < lines.length) {
      const line = lines[i]!;
      if (isBlank(line)) {
        itemLines.push('');
        previousBlank = true;
        i++;
        continue;
      }
      if (indentOf(line) >= contentIndent) {
        itemLines.push(line.slice(contentIndent));
        previousBlank = false;
        i++;
        continue;
      }
      // A less indented line: a sibling item, the end of the list, or a lazy paragraph continuation.
      if (previousBlank || listMarker(line) !== null || interruptsParagraph(line)) break;
      itemLines.push(line.trim());
      i++;
    }
    items.push(parseBlocks(itemLines, depth + 1));
    const next = i < lines.length ? listMarker(lines[i]!) : null;
    marker = next !== null && sameListKind(next, first) && next.indent < first.contentIndent ? next : null;
  }
  out.push({ kind: 'list', ordered: first.ordered, start: first.start, items });
  return i;
}

// ---------------------------------------------------------------------------------------------
// Inlines

const ESCAPABLE = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split(''));
const NAMED_REFERENCES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/y;
const WHITESPACE = /\s/g;
const AUTOLINK = /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]{0,2000})>/y;

function isWhitespace(ch: string | undefined): boolean {
  return ch === undefined || ch === ' ' || ch === '\n' || ch === '\t' || /\s/.test(ch);
}

function isAlphanumeric(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}

/** Plain text of inline nodes (an image's alt text is the text of its label). */
export function inlineText(nodes: readonly MdInline[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'code') out += node.text;
    else if (node.kind === 'image') out += node.alt;
    else if (node.kind === 'break') out += ' ';
    else out += inlineText(node.children);
  }
  return out;
}

/** Backslash escapes and character references in text that is not parsed further (URLs). */
function decodeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && ESCAPABLE.has(text[i + 1] ?? '')) {
      out += text[i + 1];
      i++;
    } else if (ch === '&') {
      const ref = matchReference(text, i);
      if (ref === null) out += ch;
      else {
        out += ref.text;
        i = ref.end - 1;
      }
    } else out += ch;
  }
  return out;
}

function matchReference(text: string, at: number): { text: string; end: number } | null {
  REFERENCE.lastIndex = at;
  const m = REFERENCE.exec(text);
  if (m === null) return null;
  let decoded: string | undefined;
  if (m[3] !== undefined) decoded = NAMED_REFERENCES[m[3]];
  else {
    const code = m[1] !== undefined ? Number(m[1]) : parseInt(m[2]!, 16);
    // NUL and surrogates are not characters; other invalid code points stay as written.
    decoded = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  }
  return decoded === undefined ? null : { text: decoded, end: at + m[0].length };
}

interface LinkMatch {
  readonly labelEnd: number;
  readonly url: string;
  /** Index just past the closing parenthesis. */
  readonly end: number;
}

/** Parses inline Markdown. `depth` caps recursion into emphasis and link labels. */
export function parseInlines(text: string, depth: number): MdInline[] {
  return new InlineParser(text, depth).parse();
}

/**
 * One pass over one piece of inline text. Searches that could repeat across a long text are
 * memoised so the pass stays linear: bracket pairs come from one stack pass, a failed search for a
 * closing delimiter is remembered, and the next `)` is found once per stretch of text.
 */
class InlineParser {
  private readonly out: MdInline[] = [];
  private buffer = '';
  /** A failed search for a closer from position p fails from any later position too. */
  private readonly noCloserFrom = new Map<string, number>();
  /** closingBracket[i] = index of the `]` matching the `[` at i, or -1; built on first use. */
  private closingBracket: Int32Array | null = null;
  private closeFor: Int32Array | null = null;
  private readonly nextFound = new Map<string, { from: number; at: number }>();
  /** Backtick run starts by run length, built on first use (see {@link closingBackticks}). */
  private backtickRuns: Map<number, { readonly starts: number[]; next: number }> | null = null;
  /** The first whitespace at or after `whitespaceFrom` (-1: none). */
  private whitespaceFrom = -1;
  private whitespaceAt = -1;

  constructor(
    private readonly text: string,
    private readonly depth: number,
  ) {}

  parse(): MdInline[] {
    const text = this.text;
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '\\' && ESCAPABLE.has(text[i + 1] ?? '')) {
        this.buffer += text[i + 1];
        i += 2;
        continue;
      }
      if (ch === '\n') {
        // Trailing spaces before a line break are not content (trimmed by hand: `/ +$/` retried
        // every position of a long run of spaces that does not end the line, quadratically).
        let end = this.buffer.length;
        while (end > 0 && this.buffer.charCodeAt(end - 1) === 0x20) end--;
        if (end < this.buffer.length) this.buffer = this.buffer.slice(0, end);
        this.flush();
        this.out.push({ kind: 'break' });
        i++;
        continue;
      }
      if (ch === '&') {
        const ref = matchReference(text, i);
        if (ref !== null) {
          this.buffer += ref.text;
          i = ref.end;
          continue;
        }
      }
      if (ch === '`') {
        i = this.codeSpan(i);
        continue;
      }
      if (ch === '!' && text[i + 1] === '[') {
        const link = this.matchLink(i + 1);
        if (link !== null) {
          this.flush();
          this.out.push({ kind: 'image', alt: inlineText(this.nested(text.slice(i + 2, link.labelEnd))), url: link.url });
          i = link.end;
          continue;
        }
      }
      if (ch === '[') {
        const link = this.matchLink(i);
        if (link !== null) {
          this.flush();
          this.out.push({ kind: 'link', url: link.url, children: this.nested(text.slice(i + 1, link.labelEnd)) });
          i = link.end;
          continue;
        }
      }
      if (ch === '<') {
        AUTOLINK.lastIndex = i;
        const auto = AUTOLINK.exec(text);
        if (auto !== null) {
          this.flush();
          this.out.push({ kind: 'link', url: auto[1]!, children: [{ kind: 'text', text: auto[1]! }] });
          i += auto[0].length;
          continue;
        }
      }
      if (ch === '*' || ch === '_') {
        i = this.emphasis(ch, i);
        continue;
      }
      this.buffer += ch;
      i++;
    }
    this.flush();
    return this.out;
  }

  private flush(): void {
    if (this.buffer === '') return;
    const last = this.out[this.out.length - 1];
    if (last !== undefined && last.kind === 'text') this.out[this.out.length - 1] = { kind: 'text', text: last.text + this.buffer };
    else this.out.push({ kind: 'text', text: this.buffer });
    this.buffer = '';
  }

  private nested(inner: string): MdInline[] {
    return this.depth + 1 < MAX_INLINE_DEPTH ? new InlineParser(inner, this.depth + 1).parse() : [{ kind: 'text', text: inner }];
  }

  /** First `delimiter` at or after `from` that `valid` accepts, or -1. */
  private findCloser(delimiter: string, from: number, valid: (at: number) => boolean): number {
    const known = this.noCloserFrom.get(delimiter);
    if (known !== undefined && known <= from) return -1;
    let k = this.text.indexOf(delimiter, from);
    while (k >= 0 && !valid(k)) k = this.text.indexOf(delimiter, k + 1);
    if (k < 0) this.noCloserFrom.set(delimiter, from);
    return k;
  }

  /**
   * The first run of exactly `run` backticks (not part of a longer run) starting at or after
   * `from`, or -1. Runs are listed once per length; spans are matched left to right, so one
   * pointer per length walks its list once. (Searching the text for each length anew cost a pass
   * per distinct run length: ``…`…``` of every length 1…k was superlinear.)
   */
  private closingBackticks(run: number, from: number): number {
    if (this.backtickRuns === null) {
      const runs = new Map<number, { readonly starts: number[]; next: number }>();
      const text = this.text;
      for (let i = text.indexOf('`'); i !== -1; i = text.indexOf('`', i)) {
        let j = i + 1;
        while (text.charCodeAt(j) === 0x60) j++;
        let list = runs.get(j - i);
        if (list === undefined) runs.set(j - i, (list = { starts: [], next: 0 }));
        list.starts.push(i);
        i = j;
      }
      this.backtickRuns = runs;
    }
    const list = this.backtickRuns.get(run);
    if (list === undefined) return -1;
    while (list.next < list.starts.length && list.starts[list.next]! < from) list.next++;
    return list.next < list.starts.length ? list.starts[list.next]! : -1;
  }

  /** A code span opening at `at`, or its backticks as text; returns the next index. */
  private codeSpan(at: number): number {
    const text = this.text;
    let run = 1;
    while (text[at + run] === '`') run++;
    const fence = '`'.repeat(run);
    const close = this.closingBackticks(run, at + run);
    if (close < 0) {
      this.buffer += fence;
      return at + run;
    }
    let code = text.slice(at + run, close).replace(/\n/g, ' ');
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
    this.flush();
    this.out.push({ kind: 'code', text: code });
    return close + run;
  }

  /** Emphasis opening at `at` (a run of `*` or `_`), or the run as text; returns the next index. */
  private emphasis(ch: '*' | '_', at: number): number {
    const text = this.text;
    let run = 1;
    while (text[at + run] === ch) run++;
    // `_` does not open inside a word (snake_case); no delimiter opens before whitespace.
    const opens = !isWhitespace(text[at + run]) && (ch === '*' || !isAlphanumeric(text[at - 1]));
    // Longest delimiter first: *** (strong + emphasis), ** (strong), * (emphasis).
    for (let size = opens ? Math.min(run, 3) : 0; size >= 1; size--) {
      const contentStart = at + run;
      const close = this.findCloser(ch.repeat(size), contentStart + 1, (k) => {
        if (isWhitespace(text[k - 1])) return false;
        // The closer must be exactly this run (not part of a longer one), and `_` must not be intraword.
        if (text[k + size] === ch || text[k - 1] === ch) return false;
        return ch === '*' || !isAlphanumeric(text[k + size]);
      });
      if (close < 0) continue;
      const children = this.nested(text.slice(contentStart, close));
      const node: MdInline = size === 3 ? { kind: 'strong', children: [{ kind: 'emphasis', children }] } : size === 2 ? { kind: 'strong', children } : { kind: 'emphasis', children };
      // Opener characters beyond the matched size stay literal, before the node.
      if (run > size) this.buffer += ch.repeat(run - size);
      this.flush();
      this.out.push(node);
      return close + size;
    }
    this.buffer += ch.repeat(run);
    return at + run;
  }

  private bracketPairs(): Int32Array {
    if (this.closingBracket !== null) return this.closingBracket;
    const text = this.text;
    const pairs = new Int32Array(text.length).fill(-1);
    const open: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\\') i++;
      else if (ch === '[') open.push(i);
      else if (ch === ']') {
        const o = open.pop();
        if (o !== undefined) pairs[o] = i;
      }
    }
    return (this.closingBracket = pairs);
  }

  /**
   * closeFor[k] = the first `)` at or after k that closes below the parenthesis depth at k (where a
   * link destination starting at k must end), or -1. Built in two linear passes: prefix depths left
   * to right, then "first `)` reaching depth d" right to left.
   */
  private closingParens(): Int32Array {
    if (this.closeFor !== null) return this.closeFor;
    const text = this.text;
    const n = text.length;
    const depthAfter = new Int32Array(n);
    const isCloser = new Uint8Array(n);
    let depth = 0;
    for (let i = 0; i < n; i++) {
      const ch = text[i];
      if (ch === '\\' && i + 1 < n) {
        depthAfter[i] = depth;
        depthAfter[++i] = depth;
        continue;
      }
      if (ch === '(') depth++;
      else if (ch === ')') {
        depth--;
        isCloser[i] = 1;
      }
      depthAfter[i] = depth;
    }
    // Depths lie in [-n, n]; index them with an offset of n.
    const firstAt = new Int32Array(2 * n + 2).fill(-1);
    const closeFor = new Int32Array(n);
    for (let k = n - 1; k >= 0; k--) {
      if (isCloser[k] === 1) firstAt[depthAfter[k]! + n] = k;
      const before = k > 0 ? depthAfter[k - 1]! : 0;
      closeFor[k] = firstAt[before - 1 + n]!;
    }
    return (this.closeFor = closeFor);
  }

  /** `text.indexOf(ch, from)`, memoised per character: links are tried left to right, so one search serves many. */
  private nextIndex(ch: string, from: number): number {
    const cached = this.nextFound.get(ch);
    if (cached !== undefined && from >= cached.from && (cached.at < 0 || from <= cached.at)) return cached.at;
    const at = this.text.indexOf(ch, from);
    this.nextFound.set(ch, { from, at });
    return at;
  }

  /** Index of the first whitespace at or after `from`, or -1 (memoised like {@link nextIndex}). */
  private nextWhitespace(from: number): number {
    if (this.whitespaceFrom < 0 || from < this.whitespaceFrom || (this.whitespaceAt >= 0 && from > this.whitespaceAt)) {
      WHITESPACE.lastIndex = from;
      this.whitespaceFrom = from;
      this.whitespaceAt = WHITESPACE.exec(this.text)?.index ?? -1;
    }
    return this.whitespaceAt;
  }

  /** `[label](dest "title")` with its `[` at `open`; null when it is not a link. */
  private matchLink(open: number): LinkMatch | null {
    const text = this.text;
    const labelEnd = this.bracketPairs()[open] ?? -1;
    if (labelEnd < 0 || labelEnd - open > MAX_LINK_PART || text[labelEnd + 1] !== '(') return null;
    let k = labelEnd + 2;
    const limit = Math.min(text.length, k + MAX_LINK_PART);
    while (k < limit && (text[k] === ' ' || text[k] === '\n')) k++;
    let url: string;
    if (text[k] === '<') {
      const close = this.nextIndex('>', k);
      if (close < 0 || close >= limit || text.slice(k + 1, close).includes('\n')) return null;
      url = text.slice(k + 1, close);
      k = close + 1;
    } else {
      // The destination runs to the first whitespace or the first unbalanced ")", found without scanning.
      let end = limit;
      const space = this.nextWhitespace(k);
      const close = this.closingParens()[k] ?? -1;
      if (space >= 0 && space < end) end = space;
      if (close >= 0 && close < end) end = close;
      if (end === limit) return null;
      url = text.slice(k, end);
      k = end;
    }
    while (k < limit && (text[k] === ' ' || text[k] === '\n')) k++;
    const quote = text[k];
    if (quote === '"' || quote === "'" || quote === '(') {
      const close = this.nextIndex(quote === '(' ? ')' : quote, k + 1);
      if (close < 0 || close >= limit) return null;
      k = close + 1;
      while (k < limit && (text[k] === ' ' || text[k] === '\n')) k++;
    }
    if (text[k] !== ')') return null;
    return { labelEnd, url: decodeText(url), end: k + 1 };
  }
}
