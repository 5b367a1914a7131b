/**
 * Entry point of the JSONL readers, gathered from the files that do the work: `jsonLines.ts`
 * (generic streaming reader), `lineReader.ts` (byte line splitter with a length limit),
 * `lineSink.ts` (one line parsed and validated), `benchFile.ts` and `predictionFile.ts`.
 */
export { byLine, dropDuplicates, FirstWins, parseJsonl, readJsonl, streamJsonl, DEFAULT_MAX_LINE_BYTES, type JsonlItem, type JsonlResult, type LineReadOptions, type SchemaSource } from './jsonLines';
export { parseBench, readBenchFile } from './benchFile';
export { parsePredictions, readPredictionFile, streamPredictionFile, type PredictionReadOptions } from './predictionFile';
