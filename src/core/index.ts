/** The metric core's public surface: pure functions over regions, ground truth and line counts. */
export * from './types';
export * from './intervals';
export * from './resolve';
export * from './prepare';
export * from './metrics';
export * from './explain';
export * from './removals';
export * from './aggregate';
export * from './patch';
export * from './auditImpact';
export * from './missAnatomy';
export * from './instanceQuery';
export * from './compareReach';
export * from './patchReach';
export * from './trajectories';
