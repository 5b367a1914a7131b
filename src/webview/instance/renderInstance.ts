/**
 * Composes the Instance panel from a validated InstanceState: issue text (sanitised Markdown), gold
 * patch files with "Open diff", FAIL_TO_PASS tests, trajectories with clickable read steps, and the
 * agreement slot. Rebuilt from the state on each render; the open/closed state of trajectory rows
 * is kept across renders of the same instance.
 */
import type { FromInstanceWebview, InstanceState, PatchFileRow, TrajectoryRow } from '../../shared/instanceProtocol';
import { el, type Child } from '../dom';
import { renderMarkdown } from './renderMarkdown';

export interface InstanceView {
  render(state: InstanceState): void;
}

type Post = (message: FromInstanceWebview) => void;

function block(id: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = `${id}-heading`;
  return el('section', { class: `block ${id}`, 'aria-labelledby': headingId }, el('h2', { id: headingId }, title), children);
}

function note(text: string): HTMLElement | null {
  return text === '' ? null : el('p', { class: 'note' }, text);
}

const STATUS_LABEL: Readonly<Record<PatchFileRow['status'], string>> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R' };

function renderPatch(state: InstanceState, post: Post): HTMLElement {
  const rows = state.patchFiles.map((file) => {
    const button = el('button', { type: 'button', class: 'open-diff', 'aria-label': `Open diff of ${file.path}` }, 'Open diff');
    button.addEventListener('click', () => post({ type: 'openDiff', path: file.path }));
    return el(
      'li',
      { class: 'patch-file' },
      el('span', { class: `status status-${file.status}`, title: file.status }, STATUS_LABEL[file.status]),
      el('span', { class: 'path', title: file.oldPath === null ? file.path : `${file.oldPath} → ${file.path}` }, file.path),
      el('span', { class: 'counts' }, el('span', { class: 'added' }, `+${file.added}`), ' ', el('span', { class: 'removed' }, `−${file.removed}`)),
      button,
    );
  });
  const list = el('ul', { class: 'patch-files' }, rows);
  return block('patch', `Gold patch (${state.patchFiles.length} file${state.patchFiles.length === 1 ? '' : 's'})`, note(state.patchNote), list);
}

function renderTests(state: InstanceState): HTMLElement {
  const list = el(
    'ul',
    { class: 'tests' },
    state.failToPass.map((test) => el('li', null, el('code', null, test))),
  );
  return block('tests', `FAIL_TO_PASS (${state.failToPass.length})`, note(state.failToPassNote), state.failToPass.length > 0 ? list : null);
}

/** Verified and resolved at a glance, on the row's closed summary. */
function runSummary(row: TrajectoryRow): HTMLElement | null {
  const run = row.run;
  if (run === null || !run.loaded) return null;
  return el(
    'span',
    { class: 'run-summary' },
    ` · ${run.verified ? '✓ verified' : '✗ not verified'} · ${run.resolution === 'unknown' ? 'resolution unknown' : run.resolution === 'resolved' ? 'resolved' : 'not resolved'}`,
  );
}

/** The run's own facts: model, messages, reads, verified, resolved; "Open run" shows it in the Trajectory view. */
function renderRunFacts(row: TrajectoryRow, post: Post): HTMLElement {
  const run = row.run;
  if (run === null) return el('p', { class: 'run-facts muted' }, 'Loading the run…');
  if (!run.loaded) return el('p', { class: 'run-facts', 'data-run-loaded': 'false' }, el('span', { class: 'muted' }, `Run not loaded: ${run.problem}`));
  const open = el('button', { type: 'button', class: 'open-run', 'aria-label': `Open the run ${row.trajPath} in the Trajectory view` }, 'Open run');
  open.addEventListener('click', () => post({ type: 'openTrajectory', trajPath: row.trajPath }));
  return el(
    'p',
    { class: 'run-facts', 'data-run-verified': run.verified ? 'true' : 'false', 'data-run-resolution': run.resolution },
    `${run.model} · ${run.messages} messages · ${run.reads} reads · `,
    el('span', { class: run.verified ? 'verified' : 'unverified' }, `${run.verified ? '✓' : '✗'} ${run.verificationText}`),
    ` · ${run.resolutionText} `,
    open,
  );
}

function renderTrajectory(row: TrajectoryRow, open: boolean, post: Post): HTMLElement {
  const steps = row.steps.map((step) => {
    const label = `step ${step.stepIdx} · ${step.path} ${step.rangeText}`;
    if (step.start === null || step.end === null) return el('li', null, el('span', { class: 'step unresolved', title: 'No lines to reveal' }, label));
    const start = step.start;
    const end = step.end;
    const button = el('button', { type: 'button', class: 'step', title: `Reveal ${step.path} lines ${start}–${end}` }, label);
    button.addEventListener('click', () => post({ type: 'revealStep', path: step.path, start, end }));
    return el('li', null, button);
  });
  const details = el(
    'details',
    { class: 'trajectory', 'data-trajectory': row.trajPath, open },
    el('summary', { title: row.trajPath }, row.label, el('span', { class: 'muted' }, ` · ${row.steps.length + row.omittedSteps} read steps`), runSummary(row)),
    renderRunFacts(row, post),
    el('ol', { class: 'steps' }, steps),
    row.omittedSteps > 0 ? note(`…and ${row.omittedSteps} more steps not listed.`) : null,
  );
  return details;
}

function renderTrajectories(state: InstanceState, openRows: ReadonlySet<string>, post: Post): HTMLElement {
  const count = state.trajectories.length;
  const heading = `Trajectories (${count}${state.trajectoryCount !== count ? ` listed, ${state.trajectoryCount} per meta` : ''})`;
  return block(
    'trajectories',
    heading,
    count === 0 ? note('No read steps in the record.') : null,
    state.trajectories.map((row) => renderTrajectory(row, openRows.has(row.trajPath), post)),
  );
}

function renderAgreement(state: InstanceState): HTMLElement {
  return block(
    'agreement',
    'Agreement',
    state.agreement.length === 0
      ? note('Agreement between auditors appears once two or more authors have audited this instance.')
      : el(
          'dl',
          null,
          state.agreement.map((entry) => [el('dt', null, entry.label), el('dd', null, entry.detail)]),
        ),
  );
}

function renderIssue(state: InstanceState): HTMLElement {
  const body = el('div', { class: 'markdown' });
  if (state.problemStatement.trim() === '') body.appendChild(el('p', { class: 'note' }, 'No problem statement in the record.'));
  else body.appendChild(renderMarkdown(state.problemStatement));
  return block('issue', 'Issue', body, state.problemStatementTruncated ? note('The issue text is long and was cut.') : null);
}

export function createInstanceView(root: HTMLElement, post: Post): InstanceView {
  let instanceId: string | null = null;
  function render(state: InstanceState): void {
    // Trajectory rows the reader opened stay open while the same instance is re-rendered.
    const openRows = new Set<string>();
    if (state.instanceId === instanceId) {
      for (const details of Array.from(root.querySelectorAll<HTMLDetailsElement>('details.trajectory'))) {
        const key = details.getAttribute('data-trajectory');
        if (details.open && key !== null) openRows.add(key);
      }
    }
    instanceId = state.instanceId;
    root.dataset['instance'] = state.instanceId;
    const header = el(
      'header',
      { class: 'instance-header' },
      el('h1', null, state.instanceId),
      el('p', { class: 'muted' }, [state.repo, state.baseCommit === '' ? '' : `@ ${state.baseCommit.slice(0, 12)}`].filter((s) => s !== '').join(' ')),
    );
    root.replaceChildren(header, renderIssue(state), renderPatch(state, post), renderTests(state), renderTrajectories(state, openRows, post), renderAgreement(state));
  }
  return { render };
}
