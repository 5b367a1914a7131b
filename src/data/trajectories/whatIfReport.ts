/**
 * The what-if report rendered for people, in the audit-impact report's family: Markdown (tables,
 * data text backslash-escaped) and CSV in long form (text cells neutralised against formulas,
 * numbers at full precision). The JSON lines are the contract; these carry the same numbers.
 */
import { OFFICIAL_METRIC_NAMES } from '../../core';
import { csvNumberCell, csvTextCell, escapeMarkdownText } from '../../shared/escape';
import type { WhatIfExplorerLine, WhatIfInstanceLine, WhatIfLine, WhatIfRankingLine, WhatIfTotalLine } from './whatIf';

const CSV_HEADER = ['kind', 'instance_id', 'explorer', 'metric', 'before', 'after', 'delta', 'detail'];

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  return typeof value === 'number' ? csvNumberCell(value) : csvTextCell(value);
}

function runsText(runs: WhatIfInstanceLine['runs']): string {
  return `rebuilt ${runs.rebuilt}; as recorded ${runs.as_recorded}; dropped ${runs.dropped}`;
}

/**
 * The report as CSV: instance rows carry the core lines before/after and, in `detail`, joined,
 * left and the runs; explorer rows one per metric with before, after and delta; ranking rows the
 * orders (explorers joined by ` > `) and τ-b in `detail`; the total row the summed core lines.
 */
export function renderWhatIfCsv(lines: readonly WhatIfLine[]): string {
  const rows: (string | number | null)[][] = [];
  for (const line of lines) {
    switch (line.kind) {
      case 'instance':
        rows.push([
          'instance',
          line.instance_id,
          null,
          'core_lines',
          line.core_lines_before,
          line.core_lines_after,
          line.core_lines_after - line.core_lines_before,
          `joined ${line.joined}; left ${line.left}; ${runsText(line.runs)}`,
        ]);
        break;
      case 'explorer':
        for (const m of OFFICIAL_METRIC_NAMES) rows.push(['explorer', null, line.explorer, m, line.before[m], line.after[m], line.after[m] - line.before[m], null]);
        break;
      case 'ranking':
        rows.push(['ranking', null, null, line.metric, line.before.join(' > '), line.after.join(' > '), null, line.kendall_tau_b === null ? 'tau_b n/a' : `tau_b ${line.kendall_tau_b}`]);
        break;
      case 'total':
        rows.push([
          'total',
          null,
          null,
          'core_lines',
          line.core_lines_before,
          line.core_lines_after,
          line.core_lines_after - line.core_lines_before,
          `instances ${line.instances}; joined ${line.joined}; left ${line.left}`,
        ]);
        break;
    }
  }
  let out = `${CSV_HEADER.join(',')}\n`;
  for (const row of rows) out += `${row.map(csvCell).join(',')}\n`;
  return out;
}

function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

function fmtDelta(value: number): string {
  return `${value > 0 ? '+' : ''}${fmt(value)}`;
}

/** The report as Markdown: what the rules did to the core, then (with explorers) macro averages and rankings, then every instance. */
export function renderWhatIfMarkdown(lines: readonly WhatIfLine[], rulesText: string): string {
  const instances = lines.filter((l): l is WhatIfInstanceLine => l.kind === 'instance');
  const explorers = lines.filter((l): l is WhatIfExplorerLine => l.kind === 'explorer');
  const rankings = lines.filter((l): l is WhatIfRankingLine => l.kind === 'ranking');
  const total = lines.find((l): l is WhatIfTotalLine => l.kind === 'total');
  const out: string[] = [`# What-if ground truth: ${escapeMarkdownText(rulesText)}`, ''];
  if (total !== undefined) {
    out.push(
      '| instances | core lines as written | core lines under the rules | joined | left |',
      '| --- | --- | --- | --- | --- |',
      `| ${total.instances} | ${total.core_lines_before} | ${total.core_lines_after} | ${total.joined} | ${total.left} |`,
      '',
    );
  }
  const runs = instances.reduce((sum, l) => ({ rebuilt: sum.rebuilt + l.runs.rebuilt, as_recorded: sum.as_recorded + l.runs.as_recorded, dropped: sum.dropped + l.runs.dropped }), {
    rebuilt: 0,
    as_recorded: 0,
    dropped: 0,
  });
  out.push(`Runs: ${runs.rebuilt} rebuilt under the rules, ${runs.as_recorded} as recorded (not loaded: their read_step_info reads, unchanged), ${runs.dropped} dropped.`, '');
  if (explorers.length > 0) {
    out.push('## Macro averages per explorer (as written → under the rules)', '', '| explorer | metric | as written | what-if | Δ |', '| --- | --- | --- | --- | --- |');
    for (const e of explorers)
      for (const m of OFFICIAL_METRIC_NAMES) out.push(`| ${escapeMarkdownText(e.explorer)} | ${m} | ${fmt(e.before[m])} | ${fmt(e.after[m])} | ${fmtDelta(e.after[m] - e.before[m])} |`);
    out.push('', '## Explorer rankings', '', '| metric | as written (best first) | what-if (best first) | Kendall τ-b |', '| --- | --- | --- | --- |');
    for (const r of rankings) out.push(`| ${r.metric} | ${r.before.map(escapeMarkdownText).join(' › ')} | ${r.after.map(escapeMarkdownText).join(' › ')} | ${fmt(r.kendall_tau_b)} |`);
    out.push('');
  }
  out.push('## Instances', '', '| instance | core lines as written | under the rules | joined | left | runs |', '| --- | --- | --- | --- | --- | --- |');
  for (const i of instances) out.push(`| ${escapeMarkdownText(i.instance_id)} | ${i.core_lines_before} | ${i.core_lines_after} | ${i.joined} | ${i.left} | ${runsText(i.runs)} |`);
  return `${out.join('\n')}\n`;
}
