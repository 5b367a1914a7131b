/**
 * The recall-vs-line-budget curve as inline SVG (createElementNS only). Colours come from CSS
 * classes in media/scores.css, which use the theme's --vscode-charts-* variables; SVG presentation
 * attributes cannot take var(), and the CSP forbids inline style attributes.
 */
import type { CurvePoint, ScoresState } from '../../shared/scoresProtocol';
import { el, section, svg } from '../dom';
import { fmt3, isNum } from '../format';

const WIDTH = 300;
const HEIGHT = 160;
const MARGIN = { left: 30, right: 12, top: 16, bottom: 28 } as const;
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

/** A "nice" tick step (1, 2 or 5 × 10^k) giving roughly `count` intervals over [0, max]. */
export function niceStep(max: number, count: number): number {
  const raw = max / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Valid points sorted by budget, starting at (0, 0): no lines read means no recall. */
function cleanPoints(curve: readonly CurvePoint[]): CurvePoint[] {
  const points = curve
    .filter((p): p is CurvePoint => typeof p === 'object' && p !== null && isNum(p.budget) && isNum(p.recall) && p.budget >= 0)
    .map((p) => ({ budget: p.budget, recall: Math.min(1, Math.max(0, p.recall)) }))
    .sort((a, b) => a.budget - b.budget);
  if (points.length > 0 && (points[0]?.budget ?? 0) > 0) points.unshift({ budget: 0, recall: 0 });
  return points;
}

export function renderCurve(state: ScoresState): HTMLElement {
  const points = cleanPoints(state.curve);
  if (points.length < 2) {
    return section('curve', 'Recall vs line budget', el('p', { class: 'muted' }, 'No curve for this instance.'));
  }
  const lastBudget = points[points.length - 1]?.budget ?? 1;
  const rawMax = Math.max(1, lastBudget, state.budget);
  const step = niceStep(rawMax, 4);
  const xMax = Math.ceil(rawMax / step) * step;
  const x = (budget: number): number => round(MARGIN.left + (Math.min(budget, xMax) / xMax) * PLOT_W);
  const y = (recall: number): number => round(MARGIN.top + (1 - recall) * PLOT_H);
  const bottom = MARGIN.top + PLOT_H;

  const grid = svg('g', { class: 'grid' });
  const axes = svg('g', { class: 'axis' });
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    grid.appendChild(svg('line', { x1: MARGIN.left, x2: MARGIN.left + PLOT_W, y1: y(tick), y2: y(tick) }));
    if (tick === 0 || tick === 0.5 || tick === 1) {
      axes.appendChild(svg('text', { x: MARGIN.left - 4, y: y(tick), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, String(tick)));
    }
  }
  for (let i = 0; i * step <= xMax + step / 2; i++) {
    const tick = Number((i * step).toPrecision(12));
    axes.appendChild(svg('line', { x1: x(tick), x2: x(tick), y1: bottom, y2: bottom + 3 }));
    axes.appendChild(svg('text', { x: x(tick), y: bottom + 12, 'text-anchor': 'middle' }, String(tick)));
  }
  axes.appendChild(svg('line', { x1: MARGIN.left, x2: MARGIN.left + PLOT_W, y1: bottom, y2: bottom }));
  axes.appendChild(svg('line', { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: bottom }));
  axes.appendChild(svg('text', { x: MARGIN.left + PLOT_W, y: HEIGHT - 2, 'text-anchor': 'end', class: 'axis-title' }, 'lines'));
  axes.appendChild(svg('text', { x: 2, y: MARGIN.top - 6, class: 'axis-title' }, 'recall'));

  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.budget)},${y(p.recall)}`).join(' ');
  const area = `${line} L${x(lastBudget)},${bottom} L${x(0)},${bottom} Z`;

  const bx = x(state.budget);
  const recall = isNum(state.recallAtBudget) ? Math.min(1, Math.max(0, state.recallAtBudget)) : null;
  const labelOnLeft = bx > MARGIN.left + PLOT_W / 2;
  const marker = svg(
    'g',
    { class: 'budget-marker' },
    svg('line', { x1: bx, x2: bx, y1: MARGIN.top, y2: bottom }),
    svg('text', { x: labelOnLeft ? bx - 4 : bx + 4, y: MARGIN.top + 8, 'text-anchor': labelOnLeft ? 'end' : 'start' }, `B=${state.budget}`),
    recall === null ? null : svg('circle', { cx: bx, cy: y(recall), r: 3 }),
    recall === null
      ? null
      : svg('text', { x: labelOnLeft ? bx - 5 : bx + 5, y: round(y(recall) + (recall > 0.85 ? 12 : -6)), 'text-anchor': labelOnLeft ? 'end' : 'start', class: 'value-label' }, fmt3(recall)),
  );

  const description = `Recall rises from 0 to ${fmt3(points[points.length - 1]?.recall)} at ${lastBudget} lines; at the chosen budget of ${state.budget} lines it is ${fmt3(recall)}.`;
  const chart = svg(
    'svg',
    { class: 'curve', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'curve-title curve-desc' },
    svg('title', { id: 'curve-title' }, 'Recall versus line budget'),
    svg('desc', { id: 'curve-desc' }, description),
    grid,
    svg('path', { class: 'curve-area', d: area }),
    svg('path', { class: 'curve-line', d: line }),
    axes,
    marker,
  );
  return section('curve', 'Recall vs line budget', chart);
}
