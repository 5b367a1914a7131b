/**
 * zod schemas of the SWE-Explore data files (design §2, metrics-spec §9 and §11).
 *
 * The schemas accept real records as they are: unknown fields are kept (export must write every
 * other field back byte-for-byte, and new releases add fields), odd but well-typed values such as
 * inverted or `-1` regions are accepted here and reported by `validate.ts`, and only types the
 * metric core cannot work with are rejected.
 */
import { z } from 'zod';
import { defineEntry, describeValue } from './values';
import { isRecord } from '../../shared/guards';

/**
 * Line numbers must be integers: `1.5` or `"3"` would make the interval arithmetic of the metric
 * core meaningless, and the evaluator itself would reject them.
 */
const LineNumber = z.int({
  error: (issue) => {
    const input = issue.input;
    if (input === undefined) return 'missing (expected integer)';
    if (typeof input === 'number' && Number.isInteger(input)) return `integer ${input} is out of the safe range`;
    return `expected integer, got ${describeValue(input)}`;
  },
});

/** A region `{path, start, end}`; extra keys are allowed and kept. */
export const RegionSchema = z.looseObject({
  path: z.string(),
  start: LineNumber,
  end: LineNumber,
});
export type RegionRecord = z.output<typeof RegionSchema>;

/**
 * Optional lists and maps of the ground truth: a missing or `null` value reads as empty, because
 * several producers omit empty collections (or write Python's `None`) and the evaluator treats
 * both as empty too.
 */
// Return types are inferred on purpose: spelling out zod's pipe types adds noise, not safety.
function listOrEmpty<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullable()
    .optional()
    .transform((v): z.output<T>[] => v ?? []);
}

/**
 * `z.record(z.string(), value).nullish()`, except that a key named `__proto__` is kept (zod drops it to
 * guard against prototype pollution; here it becomes an own data property, e.g. a model called
 * `__proto__`). Issues keep zod's paths and wording.
 */
function nullishRecordOf<T extends z.ZodType>(value: T) {
  return z
    .unknown()
    .transform((input, ctx): Record<string, z.output<T>> | null | undefined => {
      if (input === undefined || input === null) return input;
      // A plain object, like `JSON.parse` output (the fast path returns that); `defineEntry` makes a
      // `__proto__` key an own data property there too.
      const out: Record<string, z.output<T>> = {};
      if (!isRecord(input)) {
        ctx.addIssue({ code: 'invalid_type', expected: 'record', input, message: `Invalid input: expected record, received ${describeValue(input)}` });
        return out;
      }
      for (const key of Object.keys(input)) {
        // Inputs are always reported here; zod strips them from the final issues unless asked.
        const parsed = value.safeParse(input[key], { reportInput: true });
        if (parsed.success) defineEntry(out, key, parsed.data);
        else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
      }
      return out;
    })
    .optional();
}

function mapOrEmpty<T extends z.ZodType>(item: T) {
  return nullishRecordOf(z.array(item)).transform((v): Record<string, z.output<T>[]> => v ?? {});
}

/** `record.ground_truth`; `read_core_regions` is the one field that must be present. */
export const GroundTruthSchema = z.looseObject({
  read_core_files: listOrEmpty(z.string()),
  read_core_regions: z.array(RegionSchema),
  read_optional_files_map: mapOrEmpty(z.string()),
  read_optional_regions_map: mapOrEmpty(RegionSchema),
  modified_core_files: listOrEmpty(z.string()),
  main_files: listOrEmpty(z.string()),
});
export type GroundTruthRecord = z.output<typeof GroundTruthSchema>;

/** One raw read action of a trajectory (`end = -1`: whole file; negative start: `tail`). */
export const ReadStepSchema = z.looseObject({
  traj_path: z.string(),
  step_idx: LineNumber,
  start: LineNumber,
  end: LineNumber,
});
export type ReadStep = z.output<typeof ReadStepSchema>;

/** Informational text fields: `null` is accepted as "absent" (Python writers emit `None`). */
const OptionalText = z.string().nullish();

/** One benchmark record (one line of `bench.jsonl`). Unknown fields are kept. */
export const BenchRecordSchema = z.looseObject({
  instance_id: z.string().min(1, { error: 'must not be empty' }),
  ground_truth: GroundTruthSchema,
  repo_dir: OptionalText,
  repo: OptionalText,
  base_commit: OptionalText,
  problem_statement: OptionalText,
  patch: OptionalText,
  test_patch: OptionalText,
  read_step_info: nullishRecordOf(z.array(ReadStepSchema)),
  meta: nullishRecordOf(z.unknown()),
});
export type BenchRecord = z.output<typeof BenchRecordSchema>;

/**
 * One result row (`results/<explorer>/top<k>.jsonl`, metrics-spec §9). Metric values may be
 * `null` because Python writes `NaN`, which the reader maps to `null` (with a warning).
 */
export const PredictionRowSchema = z.looseObject({
  instance_id: z.string().min(1, { error: 'must not be empty' }),
  explorer: z.string(),
  regions: z.array(RegionSchema),
  metrics: nullishRecordOf(z.number().nullable()),
  num_regions: LineNumber.nullish(),
});
export type PredictionRow = z.output<typeof PredictionRowSchema>;
