/**
 * The public entry point of the data layer: the CLI and the extension import from here, never
 * from its files. Nothing exported here loads zod at start-up (the schemas are required lazily,
 * only for lines the fast checks reject).
 */
export * from './audit';
export * from './io/concurrency';
export * from './io/globs';
export * from './formats/jsonl';
export * from './workspace/benchFiles';
export * from './workspace/leaderboard';
export * from './workspace/lineCounts';
export * from './formats/lineCountsFile';
export * from './workspace/misses';
export * from './workspace/explorerSeen';
export { defaultWorkerCount, ExplorerRunPool, runJobHere, type ExplorerRunJob, type ExplorerRunOutcome } from './workspace/explorerRunPool';
export * from './workspace/patchReach';
export * from './io/paths';
export { readSmallTextFile } from './io/regularFile';
export * from './io/problems';
export * from './formats/records';
export * from './workspace/scoring';
export * from './workspace/scoreStream';
export * from './formats/transcripts';
export * from './workspace/validate';
export * from './workspace/workspace';
export type { BenchRecord, PredictionRow, ReadStep, RegionRecord } from './formats/schemas';
export { createYielder, nextTurn } from './io/cooperative';
export * from './trajectories';
