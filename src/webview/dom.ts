/**
 * Tiny DOM builders for the Scores view. Every piece of text goes through createTextNode, so data
 * from benchmark files (paths, explorer names, quirk messages) can never become markup.
 */

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;
/** A list is appended in order: callers pass data-sized lists as one argument, never spread into a call. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

function isChildList(child: Child): child is readonly Child[] {
  return Array.isArray(child);
}

function applyAttrs(node: Element, attrs: Attrs | null | undefined): void {
  if (attrs === undefined || attrs === null) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
}

function appendChildren(node: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (isChildList(child)) appendChildren(node, child);
    else node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Creates an HTML element with attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element in the SVG namespace (createElement would make an inert HTMLUnknownElement). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

/** A section with a heading; `id` makes the heading label the section for screen readers. */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = `${id}-heading`;
  return el('section', { class: `block ${id}`, 'aria-labelledby': headingId }, el('h3', { id: headingId }, title), children);
}
