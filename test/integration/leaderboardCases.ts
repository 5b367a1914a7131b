/** The Leaderboard webview and the benchmark-wide miss anatomy. */
import type { Case } from './support';

export const leaderboardCases: Case[] = [];
