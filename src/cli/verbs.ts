/**
 * The `swe-explore` verbs and the one dispatch every invocation goes through: `swe-explore --help`,
 * `swe-explore help <verb>`, `swe-explore <verb> --help` (help to stdout, exit 0), an unknown verb
 * (a one-line error naming the verbs, exit 2), else the verb itself. Each verb's help is data on its
 * registry entry ({@link Verb}); a new verb is one entry in {@link VERBS}.
 */
import { UsageError, type Verb } from './args';
import { AUDIT_IMPACT_VERB, EXPORT_VERB } from './audit';
import { MISSES_VERB } from './misses';
import { SCORE_VERB, VALIDATE_VERB } from './score';
import { BUILD_VERB, PROVENANCE_VERB, READS_VERB } from './trajectories';
import { WHATIF_VERB } from './whatif';

export type { Verb } from './args';

/** Every verb, in the order `swe-explore --help` lists them. */
export const VERBS: readonly Verb[] = [SCORE_VERB, VALIDATE_VERB, MISSES_VERB, EXPORT_VERB, AUDIT_IMPACT_VERB, READS_VERB, BUILD_VERB, PROVENANCE_VERB, WHATIF_VERB];

const TITLE = 'swe-explore — score and inspect SWE-Explore explorations (numbers match the official evaluator)';

/** `swe-explore --help`: what each verb does, one line each. */
export function overviewHelp(verbs: readonly Verb[] = VERBS): string {
  let width = 0;
  for (const verb of verbs) width = Math.max(width, verb.name.length);
  const lines = [TITLE, '', 'Usage:', '  swe-explore <verb> [flags]', '  swe-explore <verb> --help      its flags and output (also: swe-explore help <verb>)', '', 'Verbs:'];
  for (const verb of verbs) lines.push(`  ${verb.name.padEnd(width)}  ${verb.summary}`);
  return `${lines.join('\n')}\n`;
}

/** `swe-explore <verb> --help`. */
export function verbHelp(verb: Verb): string {
  return `swe-explore ${verb.name} — ${verb.summary}\n\nUsage:\n  ${verb.usage.split('\n').join('\n  ')}\n\n${verb.details}\n`;
}

/** Edit distance, for "did you mean". Verb names are short, so the quadratic table is tiny. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

/** The usage error for a word that is no verb: names the verbs, and the closest one when it is a likely typo. */
export function unknownVerbError(word: string, verbs: readonly Verb[] = VERBS): UsageError {
  const names = verbs.map((verb) => verb.name);
  const close = names.filter((name) => distance(word.toLowerCase(), name) <= 2);
  const hint = close.length === 1 ? ` (did you mean '${close[0]!}'?)` : '';
  if (word.startsWith('-')) return new UsageError(`expected a verb before ${JSON.stringify(word)}; verbs: ${names.join(', ')} (swe-explore --help)`);
  return new UsageError(`unknown verb '${word}'${hint}; verbs: ${names.join(', ')} (swe-explore --help)`);
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** What an argument vector asks for. */
export type Invocation =
  { readonly kind: 'overview'; readonly exitCode: 0 | 2 } | { readonly kind: 'verb-help'; readonly verb: Verb } | { readonly kind: 'run'; readonly verb: Verb; readonly argv: string[] };

/**
 * Reads the verb and the help requests of `argv` (pure). No argument: the overview, as a usage
 * error (exit 2). `--help` anywhere before a `--` asks for the verb's help rather than running it.
 * Throws a {@link UsageError} for an unknown verb.
 */
export function parseInvocation(argv: readonly string[], verbs: readonly Verb[] = VERBS): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'overview', exitCode: 2 };
  if (HELP_FLAGS.has(first)) return { kind: 'overview', exitCode: 0 };
  const find = (name: string): Verb => {
    const verb = verbs.find((v) => v.name === name);
    if (verb === undefined) throw unknownVerbError(name, verbs);
    return verb;
  };
  if (first === 'help') return rest[0] === undefined ? { kind: 'overview', exitCode: 0 } : { kind: 'verb-help', verb: find(rest[0]) };
  const verb = find(first);
  const end = rest.indexOf('--');
  const flags = end === -1 ? rest : rest.slice(0, end);
  return flags.some((arg) => HELP_FLAGS.has(arg)) ? { kind: 'verb-help', verb } : { kind: 'run', verb, argv: rest };
}

/** Runs an invocation: help to stdout (exit 0; the bare overview exits 2), otherwise the verb. */
export async function dispatch(argv: readonly string[], verbs: readonly Verb[] = VERBS): Promise<number> {
  const invocation = parseInvocation(argv, verbs);
  switch (invocation.kind) {
    case 'overview':
      process.stdout.write(overviewHelp(verbs));
      return invocation.exitCode;
    case 'verb-help':
      process.stdout.write(verbHelp(invocation.verb));
      return 0;
    case 'run':
      return invocation.verb.run(invocation.argv);
  }
}
