// Browser checks: Deep links and added runs. Same shape as checks.mjs (helpers in support.mjs).
export const linkChecks = [];
