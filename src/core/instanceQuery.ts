/**
 * Queries over instances ("which instances does bm25 miss but the agent finds?"), typed by the user
 * and applied as a filter by the Instances tree. Pure: parsing never throws and never reads
 * anything; evaluation asks a context for metric values, repos and audit status.
 *
 * Grammar (keywords, metric names and aliases are case-insensitive; explorer names and repos are not):
 *
 *     query      := ε | term ( "and" term )*
 *     term       := "audited" | "unaudited"
 *                 | "repo" ( "=" | "!=" ) name
 *                 | metric-ref [ "-" metric-ref ] op number
 *     metric-ref := metric [ "@" explorer ]          no "@": the current explorer
 *     explorer   := quoted | bare
 *     name       := quoted | bare
 *     op         := "<" | "<=" | ">" | ">=" | "=" | "==" | "!="
 *     quoted     := '"' any text, with \" and \\ '"'
 *     bare       := characters other than whitespace, quotes, @ < > = !
 *     number     := decimal, optional sign, fraction and exponent (finite)
 *
 * `metric` is one of the 17 official names or an alias (see {@link METRIC_ALIASES}). A `-` after a
 * bare explorer name belongs to the name (`claude-sonnet-4-5`), so write the difference with spaces:
 * `ndcg_at_500@agent - ndcg_at_500@bm25 > 0.3`.
 */
import { OFFICIAL_BUDGETS, OFFICIAL_METRIC_NAMES, type OfficialMetricName } from './types';

export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '=' | '!=';

export interface MetricRef {
  readonly metric: OfficialMetricName;
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

const OFFICIAL_NAMES: ReadonlySet<string> = new Set(OFFICIAL_METRIC_NAMES);

function metricNamed(word: string): OfficialMetricName | undefined {
  const lower = word.toLowerCase();
  if (OFFICIAL_NAMES.has(lower)) return lower as OfficialMetricName;
  return Object.prototype.hasOwnProperty.call(METRIC_ALIASES, lower) ? METRIC_ALIASES[lower] : undefined;
}

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
    if (word === undefined) this.fail('expected a metric, "repo", "audited" or "unaudited"');
    const lower = word.toLowerCase();
    if ((lower === 'audited' || lower === 'unaudited') && this.peek() !== '@') return { kind: 'audited', audited: lower === 'audited' };
    if (lower === 'repo' && this.peek() !== '@') {
      this.skipSpace();
      const opAt = this.pos;
      const op = this.operator();
      if (op !== '=' && op !== '!=') this.fail('repo compares with = or !=', opAt);
      this.skipSpace();
      return { kind: 'repo', op, repo: this.name('a repo name') };
    }
    const left = this.metricRef(word, start);
    this.skipSpace();
    let minus: MetricRef | undefined;
    if (this.peek() === '-') {
      this.pos++;
      this.skipSpace();
      const rightAt = this.pos;
      const right = this.identifier();
      if (right === undefined) this.fail('expected a metric after "-"');
      minus = this.metricRef(right, rightAt);
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

  /** `word` was just read at `start`; reads an optional `@explorer`. */
  private metricRef(word: string, start: number): MetricRef {
    const metric = metricNamed(word);
    if (metric === undefined) this.fail(`${displayToken(word)} is not a metric (official names such as recall, hit_file_rate, ndcg_at_500; aliases such as f1, ndcg500)`, start, false);
    if (this.peek() !== '@') return { metric, explorer: undefined, offset: start };
    this.pos++;
    return { metric, explorer: this.name('an explorer name after "@"'), offset: start };
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
  const value = context.metric(instanceId, explorer, ref.metric);
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
