/**
 * Queries over instances ("which instances does bm25 miss but the agent finds?"), typed by the user
 * and applied as a filter by the Instances tree. Pure: parsing never throws and never reads
 * anything; evaluation asks a context for metric values, repos and audit status.
 *
 * Grammar (keywords and metric spellings are case-insensitive; explorer names and repos are not):
 *
 *     query      := ε | term ( "and" term )*
 *     term       := "audited" | "unaudited"
 *                 | "repo" ( "=" | "!=" ) name
 *                 | metric-ref [ "-" metric-ref ] op number
 *     metric-ref := metric [ "[" explorer-in "]" | "@" explorer ]    neither: the current explorer
 *     explorer-in:= quoted | any text without "]" (trimmed)
 *     explorer   := quoted | bare
 *     name       := quoted | bare
 *     op         := "<" | "<=" | ">" | ">=" | "=" | "==" | "!="
 *     quoted     := '"' any text, with \" and \\ '"'
 *     bare       := characters other than whitespace, quotes, @ < > = !
 *     number     := decimal, optional sign, fraction and exponent (finite)
 *
 * `metric` is any spelling of {@link METRIC_SPELLINGS}: the 17 official names, the short aliases,
 * and every label the views and the CLI show (`Recall@500`, `nDCG@500`, `HitFile`, `Noise file
 * rate`, `R@500`, `hitF`, …), or a row column of {@link ROW_COLUMNS} (`seen_missed`: the missed core
 * lines the explorer's own run viewed, a number the caller provides); the longest spelling wins, so `recall@500` is Recall@500 and
 * `recall@cosil` is recall of the explorer cosil. `[explorer]` names an explorer unambiguously,
 * spaces and parentheses included (`Recall@500[agent (results/agent/top10.jsonl)]`); `@explorer`
 * still works where it cannot be read as a label (`recall@cosil`, `Recall@500@cosil`), and
 * `@` followed by digits only is refused as an unknown budget (write `recall@"500"` or
 * `recall["500"]` for an explorer named 500). A `-` after a bare explorer name belongs to the
 * name (`claude-sonnet-4-5`), so write the difference with spaces:
 * `ndcg_at_500@agent - ndcg_at_500@bm25 > 0.3`.
 */
import { OFFICIAL_BUDGETS, OFFICIAL_METRIC_NAMES, type OfficialMetricName } from './types';

export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '=' | '!=';

/**
 * Per-row numbers a query can compare besides the official metrics, provided by the caller through
 * {@link QueryContext.rowValue} (missing when it has none, like a metric without a row):
 * `seen_missed` — the missed core lines (at the caller's budget) that the explorer's own run viewed
 * (src/core/seenMisses.ts); missing when the explorer has no run for the instance.
 */
export const ROW_COLUMNS = ['seen_missed'] as const;

export type RowColumn = (typeof ROW_COLUMNS)[number];

/** What a term compares: an official metric or a row column. */
export type QueryColumn = OfficialMetricName | RowColumn;

/** Spellings of each row column besides its name (compared like metric spellings). */
export const ROW_COLUMN_SPELLINGS: Readonly<Record<RowColumn, readonly string[]>> = {
  seen_missed: ['seenMissed', 'seen missed'],
};

/** Whether a column is a row column (asked of the context's `rowValue`) rather than an official metric. */
export function isRowColumn(column: QueryColumn): column is RowColumn {
  return (ROW_COLUMNS as readonly string[]).includes(column);
}

export interface MetricRef {
  readonly metric: QueryColumn;
  /** The explorer label; undefined means the explorer selected when the query is evaluated. */
  readonly explorer: string | undefined;
  /** 0-based index of the reference in the query text (messages point there). */
  readonly offset: number;
}

export type QueryTerm =
  | {
      readonly kind: 'metric';
      readonly left: MetricRef;
      /** `left - minus op value` when present. */
      readonly minus: MetricRef | undefined;
      readonly op: ComparisonOperator;
      readonly value: number;
    }
  | { readonly kind: 'repo'; readonly op: '=' | '!='; readonly repo: string }
  | { readonly kind: 'audited'; readonly audited: boolean };

export interface InstanceQuery {
  /** The text as typed (shown back when the query is edited). */
  readonly text: string;
  /** All must hold; no terms match every instance. */
  readonly terms: readonly QueryTerm[];
}

/** Why a query text is refused: a one-line message naming the token at `offset` (0-based). */
export interface QueryProblem {
  readonly message: string;
  readonly offset: number;
  /** The offending text as written (empty at the end of the query). */
  readonly token: string;
}

export type ParsedQuery = { readonly ok: true; readonly query: InstanceQuery } | ({ readonly ok: false } & QueryProblem);

/** What evaluation asks about an instance. */
export interface QueryContext {
  /** The metric of the instance for the explorer, or undefined when unknown (no row, no line counts yet). */
  metric(instanceId: string, explorer: string, name: OfficialMetricName): number | undefined;
  /** A row column's value ({@link ROW_COLUMNS}); undefined (or no such function) when unknown: the term matches nothing. */
  rowValue?(instanceId: string, explorer: string, column: RowColumn): number | undefined;
  repo(instanceId: string): string | undefined;
  audited(instanceId: string): boolean;
  /** The explorer of references without `@`; none selected: such terms match nothing. */
  readonly currentExplorer: string | undefined;
}

/** Short names accepted besides the official ones (the CLI table's column names, lower-cased). */
export const METRIC_ALIASES: Readonly<Record<string, OfficialMetricName>> = buildAliases();

function buildAliases(): Record<string, OfficialMetricName> {
  const aliases: Record<string, OfficialMetricName> = {
    prec: 'precision',
    rec: 'recall',
    f1: 'f1_score',
    hitf: 'hit_file_rate',
    noisef: 'noise_file_rate',
    hitr: 'hit_region_rate',
    noiser: 'noise_region_rate',
    wcc: 'weighted_core_coverage',
    ctxeff: 'context_efficiency',
    optcov: 'optional_coverage',
    fuh: 'first_useful_hit',
  };
  for (const budget of OFFICIAL_BUDGETS) {
    aliases[`ndcg${budget}`] = `ndcg_at_${budget}`;
    aliases[`recall${budget}`] = `recall_at_${budget}`;
  }
  return aliases;
}

/**
 * The labels the views and the CLI show for each metric, beside its official name: the Scores
 * view's label (src/shared/metricInfo.ts), the sidebar's short headings (src/webview) and the CLI
 * table's columns (src/cli/format.ts). A unit test keeps this list in step with those places.
 */
export const METRIC_LABELS: Readonly<Record<OfficialMetricName, readonly string[]>> = {
  precision: ['Precision', 'Prec.', 'prec'],
  recall: ['Recall', 'rec'],
  f1_score: ['F1'],
  hit_file_rate: ['HitFile', 'hitF'],
  noise_file_rate: ['Noise file rate', 'noiseF'],
  hit_region_rate: ['HitRegion', 'hitR'],
  noise_region_rate: ['Noise region rate', 'noiseR'],
  weighted_core_coverage: ['Weighted core coverage', 'wcc'],
  context_efficiency: ['Context efficiency', 'ctxEff'],
  optional_coverage: ['Optional coverage', 'optCov'],
  ndcg_at_100: ['nDCG@100'],
  ndcg_at_300: ['nDCG@300'],
  ndcg_at_500: ['nDCG@500'],
  recall_at_100: ['Recall@100', 'R@100'],
  recall_at_300: ['Recall@300', 'R@300'],
  recall_at_500: ['Recall@500', 'R@500'],
  first_useful_hit: ['First useful hit', '1st hit', 'fuh'],
};

/** Every accepted spelling (lower-cased, words separated by one space) → its metric. */
export const METRIC_SPELLINGS: ReadonlyMap<string, OfficialMetricName> = buildSpellings();

function buildSpellings(): Map<string, OfficialMetricName> {
  const out = new Map<string, OfficialMetricName>();
  const add = (spelling: string, metric: OfficialMetricName): void => {
    out.set(spelling.toLowerCase().replace(/\s+/g, ' '), metric);
  };
  for (const name of OFFICIAL_METRIC_NAMES) add(name, name);
  for (const [alias, name] of Object.entries(METRIC_ALIASES)) add(alias, name);
  for (const name of OFFICIAL_METRIC_NAMES) for (const label of METRIC_LABELS[name]) add(label, name);
  return out;
}

/** Metric spellings and row-column spellings together: what the parser matches. */
function columnSpellings(): Map<string, QueryColumn> {
  const out = new Map<string, QueryColumn>(METRIC_SPELLINGS);
  for (const column of ROW_COLUMNS) for (const spelling of [column, ...ROW_COLUMN_SPELLINGS[column]]) out.set(spelling.toLowerCase().replace(/\s+/g, ' '), column);
  return out;
}

/** One sticky, case-insensitive pattern per spelling, longest first: a word gap matches any run of whitespace. */
const SPELLING_PATTERNS: ReadonlyArray<readonly [RegExp, QueryColumn]> = [...columnSpellings()]
  .sort(([a], [b]) => b.length - a.length)
  .map(([spelling, metric]) => {
    const body = spelling
      .split(' ')
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
    // A spelling that ends in a word character must not be the start of a longer word (`rec` in `recal`).
    const end = /[A-Za-z0-9_]$/.test(spelling) ? '(?![A-Za-z0-9_])' : '';
    return [new RegExp(`${body}${end}`, 'iy'), metric] as const;
  });

/** Thrown inside the parser only; {@link parseQuery} turns it into its result. */
class QuerySyntaxError extends Error {
  constructor(
    readonly problem: string,
    readonly offset: number,
    /** False when the problem already quotes the token. */
    readonly showToken: boolean,
  ) {
    super(problem);
  }
}

const WHITESPACE = /\s/;
const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
/** Characters that end a bare name: they start an operator, a reference or a quoted name. */
const BARE_STOP = new Set(['"', '@', '<', '>', '=', '!']);
const NUMBER = /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const OPERATORS: ReadonlyArray<readonly [string, ComparisonOperator]> = [
  ['<=', '<='],
  ['>=', '>='],
  ['!=', '!='],
  ['==', '='],
  ['<', '<'],
  ['>', '>'],
  ['=', '='],
];
const OPERATOR_LIST = '< <= > >= = !=';

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): QueryTerm[] {
    const terms: QueryTerm[] = [];
    this.skipSpace();
    if (this.atEnd()) return terms;
    for (;;) {
      terms.push(this.term());
      this.skipSpace();
      if (this.atEnd()) return terms;
      const at = this.pos;
      const word = this.identifier();
      if (word?.toLowerCase() !== 'and') this.fail('expected "and" or the end of the query', at);
      this.skipSpace();
      if (this.atEnd()) this.fail('expected a term after "and"');
    }
  }

  private term(): QueryTerm {
    const start = this.pos;
    const word = this.identifier();
    const lower = word?.toLowerCase();
    if ((lower === 'audited' || lower === 'unaudited') && this.peek() !== '@') return { kind: 'audited', audited: lower === 'audited' };
    if (lower === 'repo' && this.peek() !== '@') {
      this.skipSpace();
      const opAt = this.pos;
      const op = this.operator();
      if (op !== '=' && op !== '!=') this.fail('repo compares with = or !=', opAt);
      this.skipSpace();
      return { kind: 'repo', op, repo: this.name('a repo name') };
    }
    this.pos = start;
    const left = this.metricRef('expected a metric, "repo", "audited" or "unaudited"');
    this.skipSpace();
    let minus: MetricRef | undefined;
    if (this.peek() === '-') {
      this.pos++;
      this.skipSpace();
      minus = this.metricRef('expected a metric after "-"');
      this.skipSpace();
    }
    const opAt = this.pos;
    const op = this.operator();
    if (op === undefined) {
      // `recall@a-recall@b` reads as explorer "a-recall" followed by "@b": say how to write it.
      const hint = minus === undefined && left.explorer?.includes('-') === true && this.peek() === '@' ? '; write a difference with spaces around "-"' : '';
      this.fail(`expected a comparison (${OPERATOR_LIST})${hint}`, opAt);
    }
    this.skipSpace();
    return { kind: 'metric', left, minus, op, value: this.number() };
  }

  /** A metric spelling, then an optional `[explorer]` or `@explorer` (whitespace allowed before either). */
  private metricRef(expected: string): MetricRef {
    const start = this.pos;
    const metric = this.metricSpelling();
    if (metric === undefined) {
      const word = this.identifier();
      if (word === undefined) this.fail(expected);
      this.fail(
        `${displayToken(word)} is not a metric (names such as recall, hit_file_rate, ndcg_at_500, or the labels the views show, such as Recall@500, nDCG@500, HitFile; or seen_missed)`,
        start,
        false,
      );
    }
    const afterMetric = this.pos;
    this.skipSpace();
    if (this.peek() === '[') return { metric, explorer: this.bracketed(), offset: start };
    if (this.peek() !== '@') {
      this.pos = afterMetric;
      return { metric, explorer: undefined, offset: start };
    }
    this.pos++;
    this.skipSpace();
    const nameAt = this.pos;
    const explorer = this.name('an explorer name after "@"');
    // `recall@250`: a budget the official metrics do not have, not an explorer called "250".
    if (this.text[nameAt] !== '"' && /^\d+$/.test(explorer)) {
      this.fail(
        `no metric ${displayToken(this.text.slice(start, this.pos))}: the budgeted metrics exist for B = ${OFFICIAL_BUDGETS.join(', ')}; an explorer named ${explorer} is written ["${explorer}"]`,
        start,
        false,
      );
    }
    return { metric, explorer, offset: start };
  }

  /** The longest metric spelling at the cursor, consumed; undefined (cursor unchanged) when none. */
  private metricSpelling(): QueryColumn | undefined {
    for (const [pattern, metric] of SPELLING_PATTERNS) {
      pattern.lastIndex = this.pos;
      const match = pattern.exec(this.text);
      if (match !== null) {
        this.pos += match[0].length;
        return metric;
      }
    }
    return undefined;
  }

  /** `[ name ]`: a quoted name, or the text up to `]` with surrounding whitespace dropped. */
  private bracketed(): string {
    const open = this.pos;
    this.pos++;
    this.skipSpace();
    let name: string;
    if (this.peek() === '"') {
      name = this.quoted();
      this.skipSpace();
    } else {
      const from = this.pos;
      while (!this.atEnd() && this.peek() !== ']') this.pos++;
      name = this.text.slice(from, this.pos).trim();
    }
    if (this.peek() !== ']') this.fail('expected "]" to close the explorer name (quote a name that holds "]")', open);
    this.pos++;
    if (name === '') this.fail('expected an explorer name inside "[ ]"', open);
    return name;
  }

  /** A quoted or bare name (explorer, repo). */
  private name(what: string): string {
    const start = this.pos;
    if (this.peek() === '"') return this.quoted();
    while (!this.atEnd() && !WHITESPACE.test(this.peek()) && !BARE_STOP.has(this.peek())) this.pos++;
    if (this.pos === start) this.fail(`expected ${what}`);
    return this.text.slice(start, this.pos);
  }

  private quoted(): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    while (!this.atEnd()) {
      const c = this.text[this.pos]!;
      this.pos++;
      if (c === '"') return out;
      if (c === '\\' && !this.atEnd()) {
        out += this.text[this.pos]!;
        this.pos++;
      } else {
        out += c;
      }
    }
    return this.fail('unterminated quoted name (close it with ")', start);
  }

  private number(): number {
    const start = this.pos;
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.text);
    const end = match === null ? start : start + match[0].length;
    const value = match === null ? Number.NaN : Number(match[0]);
    // The number must end the term: `0.2x` and `1e999` are refused as a whole.
    if (match === null || (end < this.text.length && !WHITESPACE.test(this.text[end]!)) || !Number.isFinite(value)) this.fail('expected a number', start);
    this.pos = end;
    return value;
  }

  private operator(): ComparisonOperator | undefined {
    for (const [text, op] of OPERATORS) {
      if (this.text.startsWith(text, this.pos)) {
        this.pos += text.length;
        return op;
      }
    }
    return undefined;
  }

  private identifier(): string | undefined {
    const start = this.pos;
    if (this.atEnd() || !IDENTIFIER_START.test(this.peek())) return undefined;
    while (!this.atEnd() && IDENTIFIER_PART.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private skipSpace(): void {
    while (!this.atEnd() && WHITESPACE.test(this.peek())) this.pos++;
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private fail(problem: string, at: number = this.pos, showToken = true): never {
    throw new QuerySyntaxError(problem, at, showToken);
  }
}

/** Longest token shown in a message. */
const TOKEN_DISPLAY_LIMIT = 32;

/** The whitespace-delimited text starting at `offset` (what the user sees as the offending token). */
function tokenAt(text: string, offset: number): string {
  let end = offset;
  while (end < text.length && !WHITESPACE.test(text[end]!)) end++;
  return text.slice(offset, end);
}

/** A token as a one-line quoted string: controls and line separators escaped, long ones cut. */
function displayToken(token: string): string {
  const cut = token.length > TOKEN_DISPLAY_LIMIT ? `${token.slice(0, TOKEN_DISPLAY_LIMIT)}…` : token;
  return `"${cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}

function problemAt(text: string, problem: string, offset: number, showToken = true): QueryProblem {
  const token = tokenAt(text, offset);
  if (!showToken) return { message: `column ${offset + 1}: ${problem}`, offset, token };
  const got = token !== '' ? displayToken(token) : offset < text.length ? 'a space' : 'the end of the query';
  return { message: `column ${offset + 1}: ${problem}, got ${got}`, offset, token };
}

/** Parses a query; a malformed one gives a one-line message at the offending token, never an exception. */
export function parseQuery(text: string): ParsedQuery {
  try {
    return { ok: true, query: { text, terms: new Parser(text).parse() } };
  } catch (error) {
    if (!(error instanceof QuerySyntaxError)) throw error;
    return { ok: false, ...problemAt(text, error.problem, error.offset, error.showToken) };
  }
}

/** Explorer names shown in a message about an unknown one. */
const EXPLORERS_LISTED = 5;

/**
 * The first explorer the query names that is not among `explorers` (so a typo is reported instead
 * of silently matching nothing), or undefined when all are known.
 */
export function unknownExplorerProblem(query: InstanceQuery, explorers: readonly string[]): QueryProblem | undefined {
  const known = new Set(explorers);
  for (const term of query.terms) {
    if (term.kind !== 'metric') continue;
    for (const ref of term.minus === undefined ? [term.left] : [term.left, term.minus]) {
      if (ref.explorer === undefined || known.has(ref.explorer)) continue;
      const listed = explorers.slice(0, EXPLORERS_LISTED).map(displayToken).join(', ');
      const more = explorers.length > EXPLORERS_LISTED ? ', …' : '';
      const loaded = explorers.length === 0 ? 'no explorers are loaded' : `loaded: ${listed}${more}`;
      return problemAt(query.text, `no explorer named ${displayToken(ref.explorer)} (${loaded})`, ref.offset, false);
    }
  }
  return undefined;
}

/** Parse, then check explorer names: what an input box shows while the user types. */
export function queryProblem(text: string, explorers: readonly string[]): QueryProblem | undefined {
  const parsed = parseQuery(text);
  return parsed.ok ? unknownExplorerProblem(parsed.query, explorers) : parsed;
}

/** Whether a query has terms that read metrics (whose values arrive with line counts). */
export function queryReadsMetrics(query: InstanceQuery): boolean {
  return query.terms.some((term) => term.kind === 'metric');
}

function refValue(ref: MetricRef, instanceId: string, context: QueryContext): number | undefined {
  const explorer = ref.explorer ?? context.currentExplorer;
  if (explorer === undefined) return undefined;
  const value = isRowColumn(ref.metric) ? context.rowValue?.(instanceId, explorer, ref.metric) : context.metric(instanceId, explorer, ref.metric);
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

function compare(left: number, op: ComparisonOperator, right: number): boolean {
  switch (op) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
    case '=':
      return left === right;
    case '!=':
      return left !== right;
  }
}

function termMatches(term: QueryTerm, instanceId: string, context: QueryContext): boolean {
  switch (term.kind) {
    case 'audited':
      return context.audited(instanceId) === term.audited;
    case 'repo': {
      const repo = context.repo(instanceId);
      if (repo === undefined) return false;
      return term.op === '=' ? repo === term.repo : repo !== term.repo;
    }
    case 'metric': {
      // A missing value (no row, line counts not read) matches no comparison, `!=` included.
      const left = refValue(term.left, instanceId, context);
      if (left === undefined) return false;
      if (term.minus === undefined) return compare(left, term.op, term.value);
      const right = refValue(term.minus, instanceId, context);
      return right !== undefined && compare(left - right, term.op, term.value);
    }
  }
}

/** The query as a predicate over instance ids (every term must hold). */
export function evaluateQuery(query: InstanceQuery, context: QueryContext): (instanceId: string) => boolean {
  return (instanceId) => {
    for (const term of query.terms) if (!termMatches(term, instanceId, context)) return false;
    return true;
  };
}

/**
 * How to write an explorer in a query: `[name]`, or `["name"]` (with `\"` and `\\`) when the name
 * holds `]`, starts with a quote or has surrounding whitespace. The text is query syntax, not
 * display text: a surface that shows it must neutralise it like any data.
 */
export function explorerReference(name: string): string {
  const plain = name !== '' && name.trim() === name && !name.includes(']') && !name.startsWith('"');
  return plain ? `[${name}]` : `["${name.replace(/["\\]/g, (c) => `\\${c}`)}"]`;
}

/** The query help: a one-line prompt, the full text, and the example queries both use. */
export interface QueryHelp {
  /** One line for an input box's prompt. */
  readonly prompt: string;
  /** Plain text, lines joined by "\n". */
  readonly text: string;
  /** Every example shown; each parses and names only loaded explorers. */
  readonly examples: readonly string[];
}

/** Explorers the help text lists by name. */
const HELP_EXPLORERS_LISTED = 12;

/**
 * The help for the query box, built from the explorers that are loaded (never demo names) and the
 * metric spellings the parser accepts. Explorer names are data: the caller escapes the text for
 * its surface (notification, quick pick, Markdown).
 */
export function queryHelp(explorers: readonly string[]): QueryHelp {
  const [first, second] = explorers;
  const examples = ['Recall@500 < 0.2'];
  if (first !== undefined) examples.push(`Recall@500${explorerReference(first)} < 0.2`);
  if (first !== undefined && second !== undefined) examples.push(`nDCG@500${explorerReference(first)} - nDCG@500${explorerReference(second)} > 0.3`);
  examples.push('HitFile = 1 and repo = org/repo', 'unaudited and Recall@500 < 0.5');
  const prompt = `Terms joined by "and": ${examples.slice(0, first === undefined ? 1 : second === undefined ? 2 : 3).join(' · ')} · repo = org/repo · audited (empty: clear)`;

  const lines = [
    'Query Instances: terms joined by "and"; an instance matches when every term holds.',
    '',
    'Terms',
    "  METRIC op NUMBER                 the current explorer's value; op is one of < <= > >= = !=",
    "  METRIC[EXPLORER] op NUMBER       that explorer's value (METRIC@EXPLORER also works)",
    '  METRIC[A] - METRIC[B] op NUMBER  a difference of two values',
    '  repo = NAME, repo != NAME        quote a NAME with spaces: repo = "my org/repo"',
    '  audited, unaudited',
    "  seen_missed[EXPLORER] op NUMBER  missed core lines the explorer's own run viewed (with its runs loaded)",
    'An instance without the value (no row of that explorer, line counts not read yet, no run) matches no comparison.',
    '',
    'Metrics (any of these spellings, in any case)',
  ];
  const aliasesOf = new Map<OfficialMetricName, string[]>();
  for (const [alias, name] of Object.entries(METRIC_ALIASES)) {
    const list = aliasesOf.get(name) ?? [];
    list.push(alias);
    aliasesOf.set(name, list);
  }
  for (const name of OFFICIAL_METRIC_NAMES) {
    const [label, ...others] = METRIC_LABELS[name];
    const seen = new Set([label!.toLowerCase()]);
    const spellings: string[] = [];
    for (const spelling of [name, ...others, ...(aliasesOf.get(name) ?? [])]) {
      if (seen.has(spelling.toLowerCase())) continue;
      seen.add(spelling.toLowerCase());
      spellings.push(spelling);
    }
    lines.push(`  ${label!}: ${spellings.join(', ')}`);
  }
  lines.push('');
  if (explorers.length === 0) {
    lines.push('Explorers: no explorers are loaded.');
  } else {
    lines.push(`Explorers loaded (${explorers.length}), written after a metric as shown: Recall@500[name]`);
    for (const name of explorers.slice(0, HELP_EXPLORERS_LISTED)) lines.push(`  ${explorerReference(name)}`);
    if (explorers.length > HELP_EXPLORERS_LISTED) lines.push(`  … and ${explorers.length - HELP_EXPLORERS_LISTED} more`);
  }
  lines.push('', 'Examples');
  for (const example of examples) lines.push(`  ${example}`);
  return { prompt, text: lines.join('\n'), examples };
}
