/**
 * Turns the plain-object Markdown tree of {@link ./markdown} into DOM nodes. Only element names
 * chosen here are created and every piece of data becomes a text node or an attribute value
 * (`title`, `start`), so nothing from the issue text can become markup, a navigation or a fetch.
 */
import { el, type Child } from '../dom';
import { parseMarkdown, type MdBlock, type MdInline } from './markdown';

function renderInline(node: MdInline): Child {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'code':
      return el('code', null, node.text);
    case 'emphasis':
      return el('em', null, node.children.map(renderInline));
    case 'strong':
      return el('strong', null, node.children.map(renderInline));
    case 'link':
      // A span, not an anchor: the URL is only shown (tooltip), never followed.
      return el('span', { class: 'md-link', title: `Link (not opened): ${node.url}` }, node.children.map(renderInline));
    case 'image':
      return el('span', { class: 'md-image', title: `Image (not loaded): ${node.url}` }, node.alt === '' ? '[image]' : node.alt);
    case 'break':
      return el('br');
  }
}

/** Issue headings sit below the panel's own section headings (h2): # → h3 … capped at h6. */
function headingTag(level: number): 'h3' | 'h4' | 'h5' | 'h6' {
  return level <= 1 ? 'h3' : level === 2 ? 'h4' : level === 3 ? 'h5' : 'h6';
}

function renderBlock(block: MdBlock): Node {
  switch (block.kind) {
    case 'paragraph':
      return el('p', null, block.children.map(renderInline));
    case 'heading':
      return el(headingTag(block.level), { class: 'md-heading' }, block.children.map(renderInline));
    case 'codeBlock':
      return el('pre', { class: 'md-code', title: block.info === '' ? null : block.info }, el('code', null, block.text));
    case 'list': {
      const items = block.items.map((item) => el('li', null, item.map(renderBlock)));
      return block.ordered ? el('ol', { start: block.start === 1 ? null : block.start }, items) : el('ul', null, items);
    }
    case 'quote':
      return el('blockquote', null, block.children.map(renderBlock));
    case 'rule':
      return el('hr');
  }
}

/** Renders blocks into a fragment. */
export function renderMarkdownTree(blocks: readonly MdBlock[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const block of blocks) fragment.appendChild(renderBlock(block));
  return fragment;
}

/** Parses and renders Markdown source. */
export function renderMarkdown(source: string): DocumentFragment {
  return renderMarkdownTree(parseMarkdown(source));
}
