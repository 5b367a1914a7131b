/**
 * Entry point of the Leaderboard webview (bundled to dist/webview/leaderboard.js as a browser IIFE).
 * Posts `ready`, renders every validated `state` message, says `rendered` after drawing it, and
 * keeps the last state and the person's choices (sort, mode, expanded rows) in the webview's
 * storage so a hidden-then-shown panel repaints as it was before the extension answers.
 */
import { LEADERBOARD_COLUMNS, parseToLeaderboardWebview, type FromLeaderboardWebview, type LeaderboardState } from '../../shared/leaderboardProtocol';
import { isRecord } from '../../shared/guards';
import { ANATOMY_CATEGORIES } from '../../shared/anatomy';
import { bootWebview } from '../boot';
import { createLeaderboardView, defaultUi, type LeaderboardUi } from './renderLeaderboard';

/** The saved choices, each checked (storage is the webview's own, but a stale format must not break it). */
function restoreUi(saved: unknown): LeaderboardUi {
  const ui = defaultUi();
  if (!isRecord(saved)) return ui;
  const { sort, descending, mode, matrixMetric, expanded, segment } = saved;
  if (sort === 'explorer' || sort === 'instances' || LEADERBOARD_COLUMNS.some((c) => c === sort)) ui.sort = sort as LeaderboardUi['sort'];
  if (typeof descending === 'boolean') ui.descending = descending;
  if (mode === 'explorers' || mode === 'matrix') ui.mode = mode;
  const metric = LEADERBOARD_COLUMNS.find((c) => c === matrixMetric);
  if (metric !== undefined) ui.matrixMetric = metric;
  if (Array.isArray(expanded)) ui.expanded = expanded.filter((e): e is string => typeof e === 'string');
  if (isRecord(segment) && typeof segment['explorer'] === 'string') {
    const category = ANATOMY_CATEGORIES.find((c) => c === segment['category']);
    if (category !== undefined) ui.segment = { explorer: segment['explorer'], category };
  }
  return ui;
}

bootWebview<LeaderboardState, FromLeaderboardWebview, LeaderboardUi>({
  rootId: 'leaderboard-root',
  name: 'Leaderboard',
  parse: parseToLeaderboardWebview,
  restoreUi,
  create: createLeaderboardView,
  // Tests and the log learn from this that the panel shows the state (also when it was already drawn).
  afterShow: (state, post) => post({ type: 'rendered', explorers: state.explorers.length }),
});
