import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { inlineText, parseInlines, parseMarkdown, type MdBlock, type MdInline } from '../../../src/webview/instance/markdown';
import { cpuNow } from '../support/cpu-time';

const text = (t: string): MdInline => ({ kind: 'text', text: t });
const para = (...children: MdInline[]): MdBlock => ({ kind: 'paragraph', children });

/** Every node kind the tree may hold; the DOM renderer maps each to a fixed, inert element. */
const INLINE_KINDS = new Set(['text', 'code', 'emphasis', 'strong', 'link', 'image', 'break']);
const BLOCK_KINDS = new Set(['paragraph', 'heading', 'codeBlock', 'list', 'quote', 'rule']);

function walk(blocks: readonly MdBlock[], visit: (node: MdBlock | MdInline) => void): void {
  const inline = (nodes: readonly MdInline[]): void => {
    for (const node of nodes) {
      visit(node);
      if (node.kind === 'emphasis' || node.kind === 'strong' || node.kind === 'link') inline(node.children);
    }
  };
  for (const block of blocks) {
    visit(block);
    if (block.kind === 'paragraph' || block.kind === 'heading') inline(block.children);
    else if (block.kind === 'list') for (const item of block.items) walk(item, visit);
    else if (block.kind === 'quote') walk(block.children, visit);
  }
}

/** All text a reader sees (text, code, alt text), concatenated. */
function visibleText(blocks: readonly MdBlock[]): string {
  let out = '';
  walk(blocks, (node) => {
    if (node.kind === 'text' || node.kind === 'code' || node.kind === 'codeBlock') out += node.text;
    if (node.kind === 'image') out += node.alt;
  });
  return out;
}

describe('markdown sanitiser: hostile input is inert text', () => {
  it('a <script> block is a paragraph of text', () => {
    assert.deepEqual(parseMarkdown('<script>alert(1)</script>'), [para(text('<script>alert(1)</script>'))]);
  });

  it('an <img onerror> is text, and a Markdown image is its alt text', () => {
    assert.deepEqual(parseMarkdown('<img src=x onerror="alert(1)">'), [para(text('<img src=x onerror="alert(1)">'))]);
    assert.deepEqual(parseMarkdown('see ![the plot](https://evil.example/p.png) here'), [para(text('see '), { kind: 'image', alt: 'the plot', url: 'https://evil.example/p.png' }, text(' here'))]);
  });

  it('command: and javascript: links keep their URL only as data for a tooltip', () => {
    assert.deepEqual(parseMarkdown('[x](command:foo)'), [para({ kind: 'link', url: 'command:foo', children: [text('x')] })]);
    assert.deepEqual(parseMarkdown('[click](javascript:alert(1) "t")'), [para({ kind: 'link', url: 'javascript:alert(1)', children: [text('click')] })]);
    assert.deepEqual(parseMarkdown('<javascript:alert(1)>'), [para({ kind: 'link', url: 'javascript:alert(1)', children: [text('javascript:alert(1)')] })]);
  });

  it('a raw HTML block with an event handler stays text, line breaks kept', () => {
    const source = '<div onclick="x()">\n<iframe src="https://e.example"></iframe>\n</div>';
    assert.deepEqual(parseMarkdown(source), [para(text('<div onclick="x()">'), { kind: 'break' }, text('<iframe src="https://e.example"></iframe>'), { kind: 'break' }, text('</div>'))]);
  });

  it('character references decode to text, never to markup', () => {
    assert.deepEqual(parseMarkdown('&lt;script&gt; &amp; &#60;b&#x3e; &bogus;'), [para(text('<script> & <b> &bogus;'))]);
  });

  it('the tree holds only known node kinds for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '[', ']', '(', ')', '*', '_', '`', '!', '#', '-', '>', ' ', '\n', 'a', '1', '.', '\\', '&', ';', ':') }), (source) => {
        const blocks = parseMarkdown(source);
        walk(blocks, (node) => {
          assert.ok(BLOCK_KINDS.has(node.kind) || INLINE_KINDS.has(node.kind), node.kind);
          if (node.kind === 'link' || node.kind === 'image') assert.equal(typeof node.url, 'string');
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('markdown renderer: supported syntax', () => {
  it('headings, emphasis, code spans and paragraphs', () => {
    assert.deepEqual(parseMarkdown('## Title ##\n\nSome *em* and **strong** and `a_b()`.'), [
      { kind: 'heading', level: 2, children: [text('Title')] },
      para(text('Some '), { kind: 'emphasis', children: [text('em')] }, text(' and '), { kind: 'strong', children: [text('strong')] }, text(' and '), { kind: 'code', text: 'a_b()' }, text('.')),
    ]);
  });

  it('snake_case identifiers and lone stars are not emphasis', () => {
    assert.deepEqual(parseInlines('use foo_bar_baz and 2 * 3 * 4', 0), [text('use foo_bar_baz and 2 * 3 * 4')]);
    assert.deepEqual(parseInlines('_it_ and ***both***', 0), [
      { kind: 'emphasis', children: [text('it')] },
      text(' and '),
      { kind: 'strong', children: [{ kind: 'emphasis', children: [text('both')] }] },
    ]);
  });

  it('fenced and indented code blocks keep their text verbatim', () => {
    assert.deepEqual(parseMarkdown('```python\nx = "<b>"\n  y\n```\n\n    Traceback:\n      File "a.py"\n'), [
      { kind: 'codeBlock', info: 'python', text: 'x = "<b>"\n  y' },
      { kind: 'codeBlock', info: '', text: 'Traceback:\n  File "a.py"' },
    ]);
    // An unclosed fence runs to the end.
    assert.deepEqual(parseMarkdown('~~~\n<script>'), [{ kind: 'codeBlock', info: '', text: '<script>' }]);
  });

  it('lists, nested lists, quotes and rules', () => {
    assert.deepEqual(parseMarkdown('- a\n- b\n  1. c\n  2. d\n\n> quoted *x*\n\n---\n3) three'), [
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [[para(text('a'))], [para(text('b')), { kind: 'list', ordered: true, start: 1, items: [[para(text('c'))], [para(text('d'))]] }]],
      },
      { kind: 'quote', children: [para(text('quoted '), { kind: 'emphasis', children: [text('x')] })] },
      { kind: 'rule' },
      { kind: 'list', ordered: true, start: 3, items: [[para(text('three'))]] },
    ]);
  });

  it('link destinations: balanced parentheses, angle brackets, titles', () => {
    assert.deepEqual(parseInlines('[a](b(c)d) [e](<f g> "t") [h](i \'t\') [j](k', 0), [
      { kind: 'link', url: 'b(c)d', children: [text('a')] },
      text(' '),
      { kind: 'link', url: 'f g', children: [text('e')] },
      text(' '),
      { kind: 'link', url: 'i', children: [text('h')] },
      text(' [j](k'),
    ]);
  });

  it('backslash escapes and CRLF line endings', () => {
    assert.deepEqual(parseMarkdown('\\*not em\\*\r\nnext'), [para(text('*not em*'), { kind: 'break' }, text('next'))]);
  });

  it('link text may hold emphasis; its plain text is what an image alt shows', () => {
    const [block] = parseMarkdown('[**bold** link](https://x.example/a_(b))');
    assert.deepEqual(block, para({ kind: 'link', url: 'https://x.example/a_(b)', children: [{ kind: 'strong', children: [text('bold')] }, text(' link')] }));
    assert.equal(block?.kind === 'paragraph' ? inlineText(block.children) : null, 'bold link');
  });

  it('loses no visible text on ordinary prose', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 30 }), (words) => {
        const source = words.join(' ');
        assert.equal(visibleText(parseMarkdown(source)), source);
      }),
    );
  });
});

describe('markdown renderer: cost stays linear on adversarial input', () => {
  for (const [name, unit] of [
    ['unmatched stars', '*a '],
    ['unmatched underscores', '_a '],
    ['unmatched backticks', '`a '],
    ['open brackets', '[a'],
    ['nested quotes', '>'],
    ['nested lists', '- '],
    ['link openers', '[a]('],
    ['unbalanced destinations', '[a](()'],
    ['unclosed angle destinations', '[a](<'],
    ['unclosed titles', '[a](x "'],
  ] as const) {
    it(name, () => {
      const time = (n: number): number => {
        const source = unit.repeat(n);
        const t0 = cpuNow();
        parseMarkdown(source);
        return cpuNow() - t0;
      };
      time(2_000);
      // The best of three: a GC pause or a busy core (tests run in parallel on 2 cores) rarely hits all three.
      const small = Math.min(time(10_000), time(10_000), time(10_000));
      const large = Math.min(time(40_000), time(40_000), time(40_000));
      // Linear predicts 4×, quadratic 16×.
      assert.ok(large < small * 10 + 20, `${small.toFixed(1)} ms → ${large.toFixed(1)} ms`);
    });
  }
});
