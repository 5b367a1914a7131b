/**
 * Entry point of the Scores webview (bundled to dist/webview/scores.js as a browser IIFE): the shared
 * start-up of ./boot with the Scores protocol and view.
 */
import { parseToScoresWebview, type FromScoresWebview, type ScoresState } from '../../shared/scoresProtocol';
import { bootWebview } from '../boot';
import { createScoresView } from './renderView';

bootWebview<ScoresState, FromScoresWebview>({ rootId: 'scores-root', rootTag: 'div', name: 'Scores', parse: parseToScoresWebview, create: createScoresView });
