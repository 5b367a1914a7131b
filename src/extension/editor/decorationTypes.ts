/** The editor layers' decoration types: colours are contributed theme colours, and each layer also has a glyph, border or label. */
import * as vscode from 'vscode';
import type { LayerName } from './layerPlan';

/** A contributed theme colour (`sweExplore.<id>` in package.json, with dark/light/high-contrast defaults). */
export function themeColor(id: string): vscode.ThemeColor {
  return new vscode.ThemeColor(`sweExplore.${id}`);
}

/**
 * One decoration type per layer, created once. Every layer carries a non-colour signal too:
 * core = solid left border, optional = dashed left border, predictions = right border (solid in
 * budget, dotted past it) plus a rank badge, missed = a text label, patch = dashed underline + label,
 * removed (audit) = double left border, struck-through text and a ✂ label.
 */
export function createDecorationTypes(extensionUri: vscode.Uri): Record<LayerName, vscode.TextEditorDecorationType> {
  const create = vscode.window.createTextEditorDecorationType;
  return {
    core: create({
      isWholeLine: true,
      backgroundColor: themeColor('coreBackground'),
      borderColor: themeColor('coreBorder'),
      borderStyle: 'solid',
      borderWidth: '0 0 0 3px',
      overviewRulerColor: themeColor('coreBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    optional: create({
      isWholeLine: true,
      backgroundColor: themeColor('optionalBackground'),
      borderColor: themeColor('optionalBorder'),
      borderStyle: 'dashed',
      borderWidth: '0 0 0 3px',
    }),
    inBudget: create({
      isWholeLine: true,
      backgroundColor: themeColor('predictionInBudgetBackground'),
      borderColor: themeColor('predictionInBudgetBorder'),
      borderStyle: 'solid',
      borderWidth: '0 4px 0 0',
      overviewRulerColor: themeColor('predictionInBudgetBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    }),
    overBudget: create({
      isWholeLine: true,
      borderColor: themeColor('predictionOverBudgetBorder'),
      borderStyle: 'dotted',
      borderWidth: '0 4px 0 0',
      overviewRulerColor: themeColor('predictionOverBudgetBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    }),
    missed: create({
      isWholeLine: true,
      backgroundColor: themeColor('missedBackground'),
      overviewRulerColor: themeColor('missedBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
    missedLabel: create({
      after: { color: themeColor('missedBorder'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
    patch: create({
      isWholeLine: true,
      borderColor: themeColor('patchBorder'),
      borderStyle: 'dashed',
      borderWidth: '0 0 1px 0',
    }),
    patchLabel: create({
      after: { color: themeColor('patchBorder'), margin: '0 0 0 2em' },
    }),
    badge: create({
      after: { color: themeColor('rankBadgeForeground'), margin: '0 0 0 2em', fontWeight: 'bold' },
    }),
    removed: create({
      isWholeLine: true,
      backgroundColor: themeColor('removedBackground'),
      borderColor: themeColor('removedBorder'),
      borderStyle: 'double',
      borderWidth: '0 0 0 4px',
      overviewRulerColor: themeColor('removedBorder'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    removedText: create({
      textDecoration: 'line-through',
      opacity: '0.75',
    }),
    removedLabel: create({
      after: { color: themeColor('removedBorder'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
    // Provenance of core lines: a tint, an overview-ruler mark and a ● / ◐ label on each run.
    consensus: create({
      isWholeLine: true,
      backgroundColor: themeColor('consensusBackground'),
      overviewRulerColor: themeColor('consensusForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Full,
    }),
    consensusLabel: create({
      after: { color: themeColor('consensusForeground'), margin: '0 0 0 2em' },
    }),
    promoted: create({
      isWholeLine: true,
      backgroundColor: themeColor('promotedBackground'),
      overviewRulerColor: themeColor('promotedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Full,
    }),
    promotedLabel: create({
      after: { color: themeColor('promotedForeground'), margin: '0 0 0 2em' },
    }),
    // Ranged reads (narrower than the file): a light and a stronger tint, marks in the overview
    // ruler's right lane, and a "◎ n ranged reads" label on runs read twice or more.
    rangedReads: create({
      isWholeLine: true,
      backgroundColor: themeColor('rangedReadsBackground'),
      overviewRulerColor: themeColor('rangedReadsBackground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
    rangedReadsMany: create({
      isWholeLine: true,
      backgroundColor: themeColor('rangedReadsManyBackground'),
      overviewRulerColor: themeColor('rangedReadsForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    }),
    rangedReadsLabel: create({
      after: { color: themeColor('rangedReadsForeground'), margin: '0 0 0 2em' },
    }),
    // Compare mode: a tint per set, an overview-ruler mark (A left, B right, both centre, neither
    // across) and a glyph label (◧ ◨ ■ □) on each run, so the sets differ without colour too.
    compareOnlyA: compareType('OnlyA', vscode.OverviewRulerLane.Left),
    compareOnlyALabel: compareLabelType('OnlyA'),
    compareOnlyB: compareType('OnlyB', vscode.OverviewRulerLane.Right),
    compareOnlyBLabel: compareLabelType('OnlyB'),
    compareBoth: compareType('Both', vscode.OverviewRulerLane.Center),
    compareBothLabel: compareLabelType('Both'),
    compareNeither: compareType('Neither', vscode.OverviewRulerLane.Full),
    compareNeitherLabel: compareLabelType('Neither'),
    // What the explorer's own run viewed: an eye glyph in the gutter, an overview-ruler mark, and a
    // ◉ / ○ label (seen, never viewed) on each missed span.
    viewed: create({
      isWholeLine: true,
      light: { gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'viewed-light.svg') },
      dark: { gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'viewed-dark.svg') },
      gutterIconSize: '75%',
      overviewRulerColor: themeColor('viewedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    viewedLabel: create({
      after: { color: themeColor('viewedForeground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    }),
  };
}

function compareType(kind: string, lane: vscode.OverviewRulerLane): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: themeColor(`compare${kind}Background`),
    overviewRulerColor: themeColor(`compare${kind}Foreground`),
    overviewRulerLane: lane,
  });
}

function compareLabelType(kind: string): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    after: { color: themeColor(`compare${kind}Foreground`), margin: '0 0 0 2em', fontWeight: 'bold' },
  });
}
