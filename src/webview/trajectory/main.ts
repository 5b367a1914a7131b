/**
 * Entry point of the Trajectory view webview (bundled to dist/webview/trajectory.js as a browser
 * IIFE): the shared start-up of ../boot with the Trajectory protocol and view; says `rendered` after
 * drawing a state, so the time to open a run can be measured.
 */
import { parseToTrajectoryWebview, type FromTrajectoryWebview, type TrajectoryViewState } from '../../shared/trajectoryProtocol';
import { bootWebview } from '../boot';
import { createTrajectoryView, lastRenderDuration } from './renderTrajectory';

bootWebview<TrajectoryViewState, FromTrajectoryWebview>({
  rootId: 'trajectory-root',
  name: 'Trajectory',
  parse: parseToTrajectoryWebview,
  create: createTrajectoryView,
  afterShow: (state, post) => post({ type: 'rendered', steps: state.steps.length, ms: Math.round(lastRenderDuration()) }),
});
