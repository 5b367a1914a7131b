/**
 * Every id the extension shares with its manifest: commands, settings, views, panels, `when`
 * context keys and tree-item context values. package.json stays the manifest; a unit test
 * (test/unit/shell/ids.test.ts) checks that it contributes exactly these ids, so a rename on one
 * side cannot leave the other behind.
 */

/** Commands the extension registers (each contributed in package.json with a title). */
export const COMMANDS = {
  openInstance: 'sweExplore.openInstance',
  pickExplorer: 'sweExplore.pickExplorer',
  setBudget: 'sweExplore.setBudget',
  setProfile: 'sweExplore.setProfile',
  reload: 'sweExplore.reload',
  chooseBenchFile: 'sweExplore.chooseBenchFile',
  nextMissedSpan: 'sweExplore.nextMissedSpan',
  previousMissedSpan: 'sweExplore.previousMissedSpan',
  nextPrediction: 'sweExplore.nextPrediction',
  previousPrediction: 'sweExplore.previousPrediction',
  nextCoreRegion: 'sweExplore.nextCoreRegion',
  previousCoreRegion: 'sweExplore.previousCoreRegion',
  nextInstance: 'sweExplore.nextInstance',
  previousInstance: 'sweExplore.previousInstance',
  toggleCoreLayer: 'sweExplore.toggleCoreLayer',
  toggleOptionalLayer: 'sweExplore.toggleOptionalLayer',
  toggleOptionalModel: 'sweExplore.toggleOptionalModel',
  togglePredictionsLayer: 'sweExplore.togglePredictionsLayer',
  toggleMissedLayer: 'sweExplore.toggleMissedLayer',
  togglePatchLayer: 'sweExplore.togglePatchLayer',
  toggleConsensusLayer: 'sweExplore.toggleConsensusLayer',
  togglePromotedLayer: 'sweExplore.togglePromotedLayer',
  toggleRangedReadsLayer: 'sweExplore.toggleRangedReadsLayer',
  toggleCodeLens: 'sweExplore.toggleCodeLens',
  filterInstances: 'sweExplore.filterInstances',
  queryInstances: 'sweExplore.queryInstances',
  sortInstances: 'sweExplore.sortInstances',
  revealRegion: 'sweExplore.revealRegion',
  showProblems: 'sweExplore.showProblems',
  removeSpan: 'sweExplore.removeSpan',
  removeSpanWithLastReason: 'sweExplore.removeSpanWithLastReason',
  restoreSpan: 'sweExplore.restoreSpan',
  acceptInstance: 'sweExplore.acceptInstance',
  nextUnauditedInstance: 'sweExplore.nextUnauditedInstance',
  exportCorrectedBench: 'sweExplore.exportCorrectedBench',
  showAuditImpact: 'sweExplore.showAuditImpact',
  showInstancePanel: 'sweExplore.showInstancePanel',
  leaveOneOutTrajectory: 'sweExplore.leaveOneOutTrajectory',
  compareExplorers: 'sweExplore.compareExplorers',
  stopComparing: 'sweExplore.stopComparing',
  nextDifference: 'sweExplore.nextDifference',
  previousDifference: 'sweExplore.previousDifference',
  showLeaderboard: 'sweExplore.showLeaderboard',
  copyLink: 'sweExplore.copyLink',
  addPredictions: 'sweExplore.addPredictions',
  showTrajectory: 'sweExplore.showTrajectory',
  nextReadStep: 'sweExplore.nextReadStep',
  previousReadStep: 'sweExplore.previousReadStep',
  showReadStepsOfLine: 'sweExplore.showReadStepsOfLine',
  showExplorerRunAtLine: 'sweExplore.showExplorerRunAtLine',
  chooseGroundTruth: 'sweExplore.chooseGroundTruth',
  showWhatIfReport: 'sweExplore.showWhatIfReport',
  toggleWhatIfLayers: 'sweExplore.toggleWhatIfLayers',
  addExplorerTrajectories: 'sweExplore.addExplorerTrajectories',
  toggleViewedLayer: 'sweExplore.toggleViewedLayer',
  nextSeenMissedSpan: 'sweExplore.nextSeenMissedSpan',
  previousSeenMissedSpan: 'sweExplore.previousSeenMissedSpan',
  keyOutsideOpenInstance: 'sweExplore.keyOutsideOpenInstance',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** The configuration section every setting lives under. */
export const SETTINGS_SECTION = 'sweExplore';

/** Settings, relative to {@link SETTINGS_SECTION} (package.json contributes `sweExplore.<key>`). */
export const SETTINGS = {
  benchFile: 'data.benchFile',
  predictionGlobs: 'data.predictionGlobs',
  reposRoot: 'data.reposRoot',
  lineCountsFile: 'data.lineCountsFile',
  trajectoryRoots: 'data.trajectoryRoots',
  trajectoryTemplates: 'data.trajectoryTemplates',
  resolutionReports: 'data.resolutionReports',
  trajectoryContextMessages: 'trajectory.contextMessages',
  profile: 'scoring.profile',
  budget: 'scoring.budget',
  topK: 'scoring.topK',
  coreLayer: 'layers.core',
  optionalLayer: 'layers.optional',
  hiddenOptionalModels: 'layers.hiddenOptionalModels',
  predictionsLayer: 'layers.predictions',
  missedLayer: 'layers.missed',
  patchLayer: 'layers.patch',
  consensusLayer: 'layers.consensus',
  promotedLayer: 'layers.promoted',
  whatIfLayer: 'layers.whatIf',
  viewedLayer: 'layers.viewed',
  rangedReadsLayer: 'layers.rangedReads',
  codeLens: 'codeLens.enabled',
  auditAuthor: 'audit.author',
  auditReasons: 'audit.reasons',
  exportFolder: 'audit.exportFolder',
  confirmAboveLines: 'audit.confirmAboveLines',
} as const;

export type SettingKey = (typeof SETTINGS)[keyof typeof SETTINGS];

/** Groups of settings a component reloads as one (`affectsConfiguration` takes the full prefix). */
export const SETTING_GROUPS = {
  data: `${SETTINGS_SECTION}.data`,
  scoring: `${SETTINGS_SECTION}.scoring`,
  layers: `${SETTINGS_SECTION}.layers`,
  codeLens: `${SETTINGS_SECTION}.codeLens`,
  auditAuthor: `${SETTINGS_SECTION}.${SETTINGS.auditAuthor}`,
  trajectory: `${SETTINGS_SECTION}.trajectory`,
} as const;

/** Views of the SWE-Explore activity-bar container. */
export const VIEWS = {
  instances: 'sweExplore.instances',
  regions: 'sweExplore.regions',
  removals: 'sweExplore.removals',
  scores: 'sweExplore.scores',
} as const;

/** Webview panel types (editor-area panels, not contributed in package.json). */
export const PANELS = {
  instance: 'sweExplore.instance',
  leaderboard: 'sweExplore.leaderboard',
  trajectory: 'sweExplore.trajectory',
} as const;

/** `when`-clause context keys the extension sets. */
export const CONTEXT_KEYS = {
  inSnapshot: 'sweExplore.inSnapshot',
  inOtherSnapshot: 'sweExplore.inOtherSnapshot',
  comparing: 'sweExplore.comparing',
} as const;

/** Tree items' `contextValue`s, which package.json menus match with `viewItem`. */
export const TREE_ITEMS = {
  instance: 'sweExplore.instance',
  coreRegion: 'sweExplore.coreRegion',
  optionalRegion: 'sweExplore.optionalRegion',
  prediction: 'sweExplore.prediction',
  removal: 'sweExplore.removal',
} as const;

/** Status-bar item ids. */
export const STATUS_ITEMS = {
  score: 'sweExplore.status',
  audit: 'sweExplore.auditStatus',
} as const;

/** Keys of the workspace state (not settings: what the extension remembers per workspace). */
export const STATE_KEYS = {
  addedRuns: 'sweExplore.addedRuns',
  /** The what-if rule sets chosen in this workspace (most recent first) and whether one is in use. */
  groundTruth: 'sweExplore.groundTruth',
  addedExplorerRuns: 'sweExplore.addedExplorerRuns',
  /** Global state: the walkthrough was offered once (first activation). */
  walkthroughOffered: 'sweExplore.walkthroughOffered',
} as const;

/** The walkthrough contributed in package.json (`contributes.walkthroughs[].id`). */
export const WALKTHROUGH = 'sweExplore.gettingStarted';

/** Commands of VS Code itself the extension runs. */
export const WORKBENCH_COMMANDS = {
  setContext: 'setContext',
  showProblems: 'workbench.actions.view.problems',
  diff: 'vscode.diff',
  markdownPreviewToSide: 'markdown.showPreviewToSide',
  openWalkthrough: 'workbench.action.openWalkthrough',
  setEditorLayout: 'vscode.setEditorLayout',
  /** The focus command VS Code derives from a view id. */
  focusView: (view: (typeof VIEWS)[keyof typeof VIEWS]): string => `${view}.focus`,
} as const;
