/**
 * The public entry point of the data layer: the CLI and the extension import from here, never
 * from its files. Nothing exported here loads zod at start-up (the schemas are required lazily,
 * only for lines the fast checks reject).
 */
export * from './audit';
export * from './concurrency';
export * from './globs';
export * from './jsonl';
export * from './leaderboard';
export * from './lineCounts';
export * from './lineCountsFile';
export * from './misses';
export * from './paths';
export * from './problems';
export * from './records';
export * from './scoring';
export * from './transcripts';
export * from './validate';
export * from './workspace';
export type { BenchRecord, PredictionRow, ReadStep, RegionRecord } from './schemas';
export { createYielder, nextTurn } from './cooperative';
