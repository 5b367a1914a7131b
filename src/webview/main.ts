/**
 * Entry point of the Scores webview (bundled to dist/webview/main.js as a browser IIFE): the shared
 * start-up of ./boot with the Scores protocol and view.
 */
import { parseToWebview, type FromWebview, type ScoresState } from '../shared/protocol';
import { bootWebview } from './boot';
import { createScoresView } from './renderView';

bootWebview<ScoresState, FromWebview>({ rootId: 'scores-root', rootTag: 'div', name: 'Scores', parse: parseToWebview, create: createScoresView });
