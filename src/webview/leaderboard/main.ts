/** The Leaderboard webview bundle. */
export {};
