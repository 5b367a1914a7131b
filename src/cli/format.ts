import type { Profile } from '../core';
import type { ScoreResult } from './scoreWorkspace';

export type OutputFormat = 'table' | 'json' | 'csv';

const PROFILE_NOTE: Record<Profile, string> = {
  official: 'profile official: line counts only for ground-truth-region files, as the official evaluator (citable numbers)',
  snapshot: 'profile snapshot: line counts for every snapshot file (debugging; NOT the official evaluator\'s numbers)',
};

/** One JSON object per row, then one `{explorer, macro, instances, profile}` line per explorer. */
export function formatJson(result: ScoreResult, profile: Profile): string {
  const lines = result.rows.map((row) => JSON.stringify({ instance_id: row.instanceId, explorer: row.explorer, metrics: row.metrics }));
  for (const s of result.summaries) lines.push(JSON.stringify({ explorer: s.explorer, macro: s.macro, instances: s.instances, profile }));
  return lines.join('\n') + (lines.length > 0 ? '\n' : '');
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Header, one row per instance, then one `MACRO` row per explorer. Numbers at full precision. */
export function formatCsv(result: ScoreResult): string {
  const lines = [['instance_id', 'explorer', ...result.fields].join(',')];
  for (const row of result.rows) lines.push([csvField(row.instanceId), csvField(row.explorer), ...result.fields.map((f) => String(row.metrics[f]))].join(','));
  for (const s of result.summaries) lines.push(['MACRO', csvField(s.explorer), ...result.fields.map((f) => String(s.macro[f]))].join(','));
  return lines.join('\n') + '\n';
}

const SHORT: Record<string, string> = {
  precision: 'prec',
  recall: 'rec',
  f1_score: 'f1',
  hit_file_rate: 'hitF',
  noise_file_rate: 'noiseF',
  hit_region_rate: 'hitR',
  noise_region_rate: 'noiseR',
  weighted_core_coverage: 'wcc',
  context_efficiency: 'ctxEff',
  optional_coverage: 'optCov',
  first_useful_hit: 'fuh',
};

function shortName(field: string): string {
  return SHORT[field] ?? field.replace('ndcg_at_', 'nDCG@').replace('recall_at_', 'R@');
}

/** An aligned table (4 decimals) with the profile stated above it and macro rows below. */
export function formatTable(result: ScoreResult, profile: Profile): string {
  const header = ['instance', 'explorer', ...result.fields.map(shortName)];
  const body = result.rows.map((row) => [row.instanceId, row.explorer, ...result.fields.map((f) => (row.metrics[f] ?? 0).toFixed(4))]);
  const macro = result.summaries.map((s) => [`MACRO (${s.instances})`, s.explorer, ...result.fields.map((f) => (s.macro[f] ?? 0).toFixed(4))]);
  const all = [header, ...body, ...macro];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const render = (r: string[]): string => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const lines = [PROFILE_NOTE[profile], render(header), rule, ...body.map(render)];
  if (macro.length > 0) lines.push(rule, ...macro.map(render));
  if (result.skippedEmptyCore > 0) lines.push(`(${result.skippedEmptyCore} row(s) skipped: empty core; --keep-empty-core scores them)`);
  return lines.join('\n') + '\n';
}
