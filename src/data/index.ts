/**
 * Data layer: the only place that reads, parses and validates files. Shared by the CLI and the
 * extension, so it never imports `vscode`.
 */
export * from './answerFormat';
export * from './jsonl';
export * from './jsonScan';
export * from './lineCounts';
export * from './paths';
export * from './problems';
export * from './schemas';
export * from './validate';
export * from './lineCountsFile';
