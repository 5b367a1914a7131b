/**
 * Deep links into the inspector: `vscode://swe-explore.swe-explore-inspector/open?instance=…`.
 * Formatting and parsing only (pure): the extension's URI handler acts on a parsed target and
 * only ever navigates (select, open, reveal); it never runs anything a link names.
 *
 * A link comes from anywhere (a chat message, a web page), so every parameter is checked here:
 * each may occur once, numbers are bounded, a path must be a plain relative POSIX path, and
 * unknown parameters are reported by name (the link still works with the known ones).
 */

/** `publisher.name` of the extension: the authority VS Code routes links by. */
export const LINK_AUTHORITY = 'swe-explore.swe-explore-inspector';
/** The only link path accepted. */
export const LINK_PATH = '/open';
/** Largest budget a link may ask for (a bigger one is a typo or an attack on the renderer). */
export const MAX_LINK_BUDGET = 1_000_000;
/** Longest instance id, explorer label or metric name a link may carry. */
export const MAX_LINK_NAME_LENGTH = 500;
/** Longest snapshot path a link may carry. */
export const MAX_LINK_PATH_LENGTH = 4096;

/** The parameters a link understands, in the order {@link formatDeepLink} writes them. */
export const LINK_PARAMETERS = ['view', 'metric', 'instance', 'explorer', 'compare', 'budget', 'path', 'line'] as const;
export type LinkParameter = (typeof LINK_PARAMETERS)[number];

/** The views a link can open besides an instance. */
export const LINK_VIEWS = ['leaderboard'] as const;
export type LinkView = (typeof LINK_VIEWS)[number];

/** Where a link leads. Every field is optional; which combinations make sense is checked by {@link parseDeepLink}. */
export interface LinkTarget {
  readonly instance?: string;
  readonly explorer?: string;
  /** Explorer B of compare mode. */
  readonly compare?: string;
  readonly budget?: number;
  /** Snapshot-relative POSIX path of a file of the instance. */
  readonly path?: string;
  /** 1-based line in `path`. */
  readonly line?: number;
  readonly view?: LinkView;
  /** With `view=leaderboard`: the metric column to show. */
  readonly metric?: string;
}

export type DeepLinkParse = { readonly ok: true; readonly target: LinkTarget; readonly warnings: readonly string[] } | { readonly ok: false; readonly message: string };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why `p` cannot name a file of a snapshot, or undefined when it can: it must be relative, POSIX
 * (no backslash, no drive letter), without `..` or empty segments and without control characters.
 * (The extension then resolves it through the snapshot's real path as for any region path.)
 */
export function linkPathProblem(p: string): string | undefined {
  if (p === '') return 'is empty';
  if (p.length > MAX_LINK_PATH_LENGTH) return `is longer than ${MAX_LINK_PATH_LENGTH} characters`;
  if (CONTROL.test(p)) return 'contains a control character';
  if (p.includes('\\')) return 'contains a backslash (paths in links are POSIX)';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'is absolute';
  const segments = p.split('/');
  if (segments.includes('..')) return "has a '..' segment";
  if (segments.some((s) => s === '' || s === '.')) return "has an empty or '.' segment";
  return undefined;
}

function nameProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  if (value.length > MAX_LINK_NAME_LENGTH) return `is longer than ${MAX_LINK_NAME_LENGTH} characters`;
  return undefined;
}

/** A positive safe integer written in plain decimal digits, at most `max`; else undefined. */
function positiveInteger(text: string, max: number): number | undefined {
  if (!/^[0-9]{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : undefined;
}

/** Unknown parameters a warning names; the rest are counted. */
const UNKNOWN_PARAMETERS_NAMED = 3;

/** Quotes a value for a message: JSON form, shortened; escaping for the surface is the caller's job. */
function quote(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(shown);
}

function isLinkParameter(name: string): name is LinkParameter {
  return (LINK_PARAMETERS as readonly string[]).includes(name);
}

/** Lone surrogates become U+FFFD, so that encoding a value taken from data never throws. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * Decodes every run of `%XX` escapes that is valid UTF-8 and leaves the rest as written. Unlike
 * form decoding, `+` stays a plus: a hand-written `path=src/c++/a.cc` means what it says (copied
 * links write a space as `%20`), and a stray `%` is kept rather than refused.
 */
function decodeComponent(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** `name=value` pairs of a query, decoded, in order; empty pairs (`a=1&&b=2`) are skipped. */
function queryEntries(query: string): [string, string][] {
  const entries: [string, string][] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    entries.push(equals === -1 ? [decodeComponent(pair), ''] : [decodeComponent(pair.slice(0, equals)), decodeComponent(pair.slice(equals + 1))]);
  }
  return entries;
}

/**
 * Parses a link's query as the URI handler receives it (`vscode.Uri.query`, already decoded once
 * by VS Code; see {@link formatDeepLink}): percent escapes decoded, `+` literal. Refuses a repeated
 * parameter, a bad value, or a link that leads nowhere; names unknown parameters in `warnings`.
 */
export function parseDeepLink(query: string): DeepLinkParse {
  const params = queryEntries(query);
  const seen = new Map<LinkParameter, string>();
  const unknown: string[] = [];
  let unknownCount = 0;
  let position = 0;
  for (const [name, value] of params) {
    position += 1;
    if (!isLinkParameter(name)) {
      // A link with thousands of unknown parameters names a few; the warning stays one short line.
      if (unknownCount++ < UNKNOWN_PARAMETERS_NAMED) unknown.push(`${quote(name)} (parameter ${position})`);
      continue;
    }
    if (seen.has(name)) return { ok: false, message: `the link repeats the parameter '${name}' (parameter ${position}); each may occur once` };
    seen.set(name, value);
  }
  const target: { -readonly [K in keyof LinkTarget]: LinkTarget[K] } = {};
  const warnings: string[] = [];
  if (unknownCount > 0) {
    const more = unknownCount - unknown.length;
    warnings.push(`the link has unknown parameter${unknownCount === 1 ? '' : 's'} ${unknown.join(', ')}${more > 0 ? ` and ${more} more` : ''}; ${unknownCount === 1 ? 'it was' : 'they were'} ignored`);
  }
  for (const name of ['instance', 'explorer', 'compare', 'metric'] as const) {
    const value = seen.get(name);
    if (value === undefined) continue;
    const problem = nameProblem(value);
    if (problem !== undefined) return { ok: false, message: `the link's '${name}' ${problem}` };
    target[name] = value;
  }
  const view = seen.get('view');
  if (view !== undefined) {
    const known = LINK_VIEWS.find((v) => v === view);
    if (known === undefined) return { ok: false, message: `the link's 'view' ${quote(view)} is unknown (known: ${LINK_VIEWS.join(', ')})` };
    target.view = known;
  }
  const budget = seen.get('budget');
  if (budget !== undefined) {
    const n = positiveInteger(budget, MAX_LINK_BUDGET);
    if (n === undefined) return { ok: false, message: `the link's 'budget' ${quote(budget)} is not a whole number from 1 to ${MAX_LINK_BUDGET}` };
    target.budget = n;
  }
  const line = seen.get('line');
  if (line !== undefined) {
    const n = positiveInteger(line, Number.MAX_SAFE_INTEGER);
    if (n === undefined) return { ok: false, message: `the link's 'line' ${quote(line)} is not a positive whole number` };
    target.line = n;
  }
  const p = seen.get('path');
  if (p !== undefined) {
    const problem = linkPathProblem(p);
    if (problem !== undefined) return { ok: false, message: `the link's 'path' ${quote(p)} ${problem}; it was refused` };
    target.path = p;
  }
  if (target.view === 'leaderboard') {
    for (const name of ['instance', 'compare', 'path', 'line'] as const) {
      if (target[name] !== undefined) {
        warnings.push(`'${name}' has no meaning with view=leaderboard; it was ignored`);
        delete target[name];
      }
    }
    return { ok: true, target, warnings };
  }
  if (target.metric !== undefined) {
    warnings.push("'metric' has a meaning only with view=leaderboard; it was ignored");
    delete target.metric;
  }
  if (target.instance === undefined) return { ok: false, message: "the link names no 'instance' (and no view)" };
  if (target.line !== undefined && target.path === undefined) {
    warnings.push("'line' without 'path' was ignored");
    delete target.line;
  }
  return { ok: true, target, warnings };
}

/**
 * The query of a link (what {@link parseDeepLink} reads), parameters in {@link LINK_PARAMETERS}
 * order, each value percent-encoded whole (a space is `%20`, a plus `%2B`).
 */
export function formatLinkQuery(target: LinkTarget): string {
  const pairs: string[] = [];
  for (const name of LINK_PARAMETERS) {
    const value = target[name];
    if (value !== undefined) pairs.push(`${name}=${encodeURIComponent(wellFormed(String(value)))}`);
  }
  return pairs.join('&');
}

/**
 * The link to `target`. VS Code decodes a URI's query once before the handler sees it
 * (`Uri.query`), which would turn an `&` or `=` escaped inside an instance id into a separator;
 * so the query is escaped twice (`%` → `%25`): after VS Code's decoding what remains is exactly
 * {@link formatLinkQuery}'s text. Hand-written links with plain values work either way.
 */
export function formatDeepLink(target: LinkTarget, scheme = 'vscode'): string {
  return `${scheme}://${LINK_AUTHORITY}${LINK_PATH}?${formatLinkQuery(target).replace(/%/g, '%25')}`;
}
