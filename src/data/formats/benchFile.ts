/**
 * The bench file (`bench.jsonl`, one record a line, metrics-spec §11): reading, validating, and
 * refusing repeated instance ids.
 */
import { dropDuplicates, FirstWins, parseJsonl, readJsonl, type JsonlResult, type LineReadOptions } from './jsonLines';
import { lazySchemas } from './lineSink';
import { fastParseBenchRecord } from './records';
import type { BenchRecord } from './schemas';

function dedupeBench(result: JsonlResult<BenchRecord>, file: string): JsonlResult<BenchRecord> {
  return dropDuplicates(
    result,
    new FirstWins<BenchRecord>(
      file,
      (r) => r.instance_id,
      (r, firstLine) => ({
        severity: 'error',
        code: 'duplicate-instance',
        message: `duplicate instance_id ${JSON.stringify(r.instance_id)} (first seen on line ${firstLine}); this record is ignored`,
      }),
      (r) => r.instance_id,
    ),
  );
}

/** Parses bench JSONL text (see {@link readBenchFile}). */
export function parseBench(text: string, file = '<bench>'): JsonlResult<BenchRecord> {
  return dedupeBench(
    parseJsonl(text, file, () => lazySchemas().BenchRecordSchema, fastParseBenchRecord),
    file,
  );
}

/**
 * Reads a bench file (one record a line, metrics-spec §11). Malformed lines and schema violations
 * are error problems; a repeated `instance_id` is an error on the later line, and the first valid
 * record is the one kept.
 */
export async function readBenchFile(filePath: string, options: LineReadOptions = {}): Promise<JsonlResult<BenchRecord>> {
  return dedupeBench(await readJsonl(filePath, () => lazySchemas().BenchRecordSchema, fastParseBenchRecord, options), filePath);
}
