/** Trajectories in the data layer: reading runs in every format, finding them, indexing folders, reports, and the builder's build. */
export * from './reader';
export * from './native';
export * from './convert';
export * from './formats';
export * from './repository';
export * from './runs';
export * from './locate';
export * from './reports';
export * from './folder';
export * from './build';
export * from './whatIf';
export * from './whatIfReport';
export * from './explorerRuns';
export * from './repairRuns';
