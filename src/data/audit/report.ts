/**
 * The audit-impact report rendered for people: Markdown and CSV. Text from data (explorer names,
 * instance ids, reasons) is escaped for each surface: Markdown punctuation backslash-escaped,
 * CSV cells neutralised against formulas.
 */
import {
  MAX_PAIRWISE_AUTHORS,
  OFFICIAL_METRIC_NAMES,
  type AgreementImpact,
  type ExplorerImpact,
  type FleissAgreementImpact,
  type ImpactLine,
  type InstanceImpact,
  type NullImpact,
  type OfficialMetricName,
  type RankingImpact,
  type ReasonImpact,
} from '../../core';
import { csvNumberCell, csvTextCell, escapeMarkdownText } from '../../shared/escape';

const CSV_HEADER = ['kind', 'explorer', 'instance_id', 'metric', 'reason', 'before', 'after', 'delta', 'detail'];

/** A CSV cell: text from data neutralised against formulas, numbers at full precision, null empty. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  return typeof value === 'number' ? csvNumberCell(value) : csvTextCell(value);
}

function delta(before: number | null | undefined, after: number | null | undefined): number | null {
  return before === null || before === undefined || after === null || after === undefined ? null : after - before;
}

/**
 * The report as CSV in long form: one row per (line, metric) with before, after and delta;
 * ranking rows carry the order in `before`/`after` (explorers joined by ` > `) and τ-b in
 * `detail`; reason rows carry removals in `before` and lines in `after`; null-model rows carry
 * p05/median/p95 in `detail`; agreement rows carry the lines in dispute in `before`, Cohen's κ in
 * `after` (empty when undefined) and the two authors and disputed spans in `detail`; an
 * `agreement_fleiss` row the same with Fleiss' κ and the number of authors.
 */
export function renderImpactCsv(lines: readonly ImpactLine[]): string {
  const rows: (string | number | null)[][] = [];
  for (const line of lines) {
    switch (line.kind) {
      case 'explorer':
        for (const m of OFFICIAL_METRIC_NAMES)
          rows.push(['explorer', line.explorer, null, m, null, line.before[m], line.after[m], delta(line.before[m], line.after[m]), `instances ${line.instances_before} -> ${line.instances_after}`]);
        break;
      case 'instance':
        for (const m of OFFICIAL_METRIC_NAMES)
          rows.push([
            'instance',
            line.explorer,
            line.instance_id,
            m,
            null,
            line.before?.[m] ?? null,
            line.after?.[m] ?? null,
            delta(line.before?.[m], line.after?.[m]),
            line.after === null ? 'not scored after' : line.before === null ? 'not scored before' : null,
          ]);
        break;
      case 'ranking':
        rows.push(['ranking', null, null, line.metric, null, line.before.join(' > '), line.after.join(' > '), null, line.kendall_tau_b === null ? 'tau_b n/a' : `tau_b ${line.kendall_tau_b}`]);
        break;
      case 'reason':
        rows.push(['reason', null, null, null, line.reason, line.removals, line.lines, null, 'removals, lines']);
        break;
      case 'null':
        rows.push(['null', null, null, line.metric, null, null, line.audit_tau, null, `p05 ${line.tau_p05 ?? 'n/a'}; median ${line.tau_median ?? 'n/a'}; p95 ${line.tau_p95 ?? 'n/a'}`]);
        break;
      case 'agreement_fleiss':
        rows.push([
          'agreement_fleiss',
          null,
          line.instance_id,
          'fleiss_kappa',
          null,
          line.disputed_lines,
          line.kappa,
          null,
          `${line.authors} authors; disputed: ${disputedText(line, Infinity) || 'none'}`,
        ]);
        break;
      case 'agreement':
        rows.push([
          'agreement',
          null,
          line.instance_id,
          'cohen_kappa',
          null,
          line.disputed_lines,
          line.kappa,
          null,
          `${line.authors[0]} vs ${line.authors[1]}; disputed: ${disputedText(line, Infinity) || 'none'}`,
        ]);
        break;
    }
  }
  let out = `${CSV_HEADER.join(',')}\n`;
  for (const row of rows) out += `${row.map(csvCell).join(',')}\n`;
  return out;
}

/** "path 40–53; path 60" for the first `limit` disputed spans, then how many more there are. */
function disputedText(line: AgreementImpact | FleissAgreementImpact, limit: number, escape: (text: string) => string = (t) => t): string {
  const parts: string[] = [];
  for (const span of line.disputed) {
    if (parts.length >= limit) {
      parts.push(`… ${line.disputed.length - limit} more`);
      break;
    }
    parts.push(`${escape(span.path)} ${span.start === span.end ? span.start : `${span.start}–${span.end}`}`);
  }
  return parts.join('; ');
}

/** Disputed spans listed per agreement row in Markdown; the JSON and CSV list all of them. */
const MARKDOWN_DISPUTED_SPANS = 5;

function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

function fmtDelta(value: number | null): string {
  if (value === null) return '–';
  return `${value > 0 ? '+' : ''}${fmt(value)}`;
}

/** The report as Markdown: macro table per explorer, rankings with τ-b, reasons, null model, auditor agreement, and per-instance changes. */
export function renderImpactMarkdown(lines: readonly ImpactLine[]): string {
  const explorers = lines.filter((l): l is ExplorerImpact => l.kind === 'explorer');
  const instances = lines.filter((l): l is InstanceImpact => l.kind === 'instance');
  const rankings = lines.filter((l): l is RankingImpact => l.kind === 'ranking');
  const reasons = lines.filter((l): l is ReasonImpact => l.kind === 'reason');
  const nulls = lines.filter((l): l is NullImpact => l.kind === 'null');
  const agreements = lines.filter((l): l is AgreementImpact | FleissAgreementImpact => l.kind === 'agreement' || l.kind === 'agreement_fleiss');
  const out: string[] = ['# Audit impact', ''];

  out.push('## Macro averages per explorer', '');
  out.push('| explorer | instances | metric | before | after | Δ |', '| --- | --- | --- | --- | --- | --- |');
  for (const e of explorers) {
    for (const m of OFFICIAL_METRIC_NAMES) {
      out.push(`| ${escapeMarkdownText(e.explorer)} | ${e.instances_before} → ${e.instances_after} | ${m} | ${fmt(e.before[m])} | ${fmt(e.after[m])} | ${fmtDelta(delta(e.before[m], e.after[m]))} |`);
    }
  }
  out.push('', '## Explorer rankings', '', '| metric | before (best first) | after (best first) | Kendall τ-b |', '| --- | --- | --- | --- |');
  for (const r of rankings) {
    out.push(`| ${r.metric} | ${r.before.map(escapeMarkdownText).join(' › ')} | ${r.after.map(escapeMarkdownText).join(' › ')} | ${fmt(r.kendall_tau_b)} |`);
  }
  if (nulls.length > 0) {
    out.push('', '## Null model (random audits of the same size)', '', '| metric | τ p05 | τ median | τ p95 | audit τ |', '| --- | --- | --- | --- | --- |');
    for (const n of nulls) out.push(`| ${n.metric} | ${fmt(n.tau_p05)} | ${fmt(n.tau_median)} | ${fmt(n.tau_p95)} | ${fmt(n.audit_tau)} |`);
  }
  out.push('', '## Removals by reason', '', '| reason | removals | lines |', '| --- | --- | --- |');
  for (const r of reasons) out.push(`| ${escapeMarkdownText(r.reason)} | ${r.removals} | ${r.lines} |`);
  if (agreements.length > 0) {
    out.push(
      '',
      `## Agreement between auditors (Cohen's κ over core lines, removed vs kept; Fleiss' κ above ${MAX_PAIRWISE_AUTHORS} auditors of an instance)`,
      '',
      '| instance | authors | κ | lines in dispute | disputed spans |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const a of agreements) {
      const spans = disputedText(a, MARKDOWN_DISPUTED_SPANS, escapeMarkdownText) || '–';
      const authors = a.kind === 'agreement' ? `${escapeMarkdownText(a.authors[0])} ↔ ${escapeMarkdownText(a.authors[1])}` : `${a.authors} authors (Fleiss' κ)`;
      out.push(`| ${escapeMarkdownText(a.instance_id)} | ${authors} | ${fmt(a.kappa)} | ${a.disputed_lines} | ${spans} |`);
    }
  }
  out.push('', '## Audited instances', '', '| instance | explorer | recall | precision | nDCG@500 |', '| --- | --- | --- | --- | --- |');
  for (const i of instances) {
    const cell = (m: OfficialMetricName): string => `${fmt(i.before?.[m])} → ${fmt(i.after?.[m])}`;
    out.push(`| ${escapeMarkdownText(i.instance_id)} | ${escapeMarkdownText(i.explorer)} | ${cell('recall')} | ${cell('precision')} | ${cell('ndcg_at_500')} |`);
  }
  return `${out.join('\n')}\n`;
}
