// Browser checks: The Leaderboard webview. Same shape as checks.mjs (helpers in support.mjs).
export const leaderboardChecks = [];
