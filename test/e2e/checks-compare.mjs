// Browser checks: Compare mode in the editor and the Scores view. Same shape as checks.mjs (helpers in support.mjs).
export const compareChecks = [];
