/**
 * The Scores view's controls: instance, explorer, profile and line budget. These elements are built
 * once and updated in place, so focus, an open <select> and a half-typed custom budget survive the
 * frequent re-renders the extension triggers.
 */
import { OFFICIAL_BUDGETS, type Profile } from '../../shared/metricInfo';
import { MAX_BUDGET, type FromScoresWebview, type ScoresState } from '../../shared/scoresProtocol';
import { benchCaption } from '../../shared/texts';
import { el } from '../dom';

const PROFILE_LABELS: Readonly<Record<Profile, string>> = {
  official: 'official (citable)',
  snapshot: 'snapshot (debug: counts every file)',
};

export interface Header {
  readonly element: HTMLElement;
  update(state: ScoresState): void;
}

/** Parses the custom budget field: an integer in [1, 1 000 000], or null. */
export function parseBudgetInput(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_BUDGET ? value : null;
}

export function createHeader(post: (message: FromScoresWebview) => void): Header {
  const instance = el('h2', { class: 'instance' });
  // Which ground truth the numbers use (as written, audited, a what-if), always said.
  const groundTruth = el('p', { class: 'ground-truth muted', 'data-ground-truth': '' });
  // Which file the ground truth came from: a corrected export must never pass for the bench unseen.
  const bench = el('p', { class: 'bench-file muted', 'data-bench': '' });

  // The ground-truth selector: as written, audited, the what-ifs chosen before, and composing one.
  const COMPOSE = '';
  const groundTruthSelect = el('select', { id: 'ground-truth-select', 'aria-describedby': 'ground-truth-pending' });
  const groundTruthPending = el('span', { id: 'ground-truth-pending', class: 'muted', role: 'status', hidden: true });
  let groundTruthOptionsKey = '';
  let groundTruthSelected = '';
  groundTruthSelect.addEventListener('change', () => {
    const choice = groundTruthSelect.value;
    if (choice === COMPOSE) {
      // The quick pick composes the rules; the selector shows the choice in effect until one is made.
      groundTruthSelect.value = groundTruthSelected;
      post({ type: 'composeWhatIf' });
    } else post({ type: 'setGroundTruth', choice });
  });

  const explorerSelect = el('select', { id: 'explorer-select' });
  explorerSelect.addEventListener('change', () => {
    if (explorerSelect.value !== '') post({ type: 'setExplorer', explorer: explorerSelect.value });
  });
  let explorerOptionsKey = '';

  const profileSelect = el('select', { id: 'profile-select' });
  for (const profile of Object.keys(PROFILE_LABELS) as Profile[]) {
    profileSelect.appendChild(el('option', { value: profile }, PROFILE_LABELS[profile]));
  }
  profileSelect.addEventListener('change', () => {
    const profile = profileSelect.value;
    if (profile === 'official' || profile === 'snapshot') post({ type: 'setProfile', profile });
  });

  const budgetButtons = OFFICIAL_BUDGETS.map((budget) => {
    const button = el('button', { type: 'button', class: 'budget-button', 'aria-pressed': 'false', 'data-budget': budget }, String(budget));
    button.addEventListener('click', () => {
      customDirty = false;
      customInput.value = '';
      hideError();
      post({ type: 'setBudget', budget });
    });
    return button;
  });

  // The custom field is "dirty" from the first keystroke until the value is sent, and a dirty
  // field is never overwritten by an incoming state.
  let customDirty = false;
  const customInput = el('input', {
    id: 'budget-custom',
    type: 'number',
    min: 1,
    max: MAX_BUDGET,
    step: 1,
    inputmode: 'numeric',
    placeholder: 'lines',
    'aria-describedby': 'budget-error',
  });
  const customSet = el('button', { type: 'button', class: 'secondary' }, 'Set');
  const customError = el('span', { id: 'budget-error', class: 'error', role: 'alert', hidden: true });

  function hideError(): void {
    customError.hidden = true;
    customError.textContent = '';
    customInput.removeAttribute('aria-invalid');
  }

  function commitCustom(): void {
    const budget = parseBudgetInput(customInput.value);
    if (budget === null) {
      customError.textContent = `Enter a whole number of lines from 1 to ${MAX_BUDGET.toLocaleString('en-US')}.`;
      customError.hidden = false;
      customInput.setAttribute('aria-invalid', 'true');
      return;
    }
    hideError();
    customDirty = false;
    post({ type: 'setBudget', budget });
  }

  customInput.addEventListener('input', () => {
    customDirty = true;
    if (!customError.hidden) hideError();
  });
  customInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitCustom();
    } else if (event.key === 'Escape' && customDirty) {
      customDirty = false;
      hideError();
      customInput.value = '';
      syncCustom(lastBudget);
    }
  });
  customSet.addEventListener('click', commitCustom);

  let lastBudget = 0;
  function syncCustom(budget: number): void {
    if (customDirty) return;
    const official = (OFFICIAL_BUDGETS as readonly number[]).includes(budget);
    const wanted = official ? '' : String(budget);
    if (customInput.value !== wanted) customInput.value = wanted;
  }

  const element = el(
    'header',
    { class: 'controls' },
    instance,
    groundTruth,
    bench,
    el('div', { class: 'control-row' }, el('label', { for: 'ground-truth-select' }, 'Ground truth'), groundTruthSelect),
    groundTruthPending,
    el('div', { class: 'control-row' }, el('label', { for: 'explorer-select' }, 'Explorer'), explorerSelect),
    el('div', { class: 'control-row' }, el('label', { for: 'profile-select' }, 'Profile'), profileSelect),
    el(
      'div',
      { class: 'control-row budget', role: 'group', 'aria-labelledby': 'budget-label' },
      el('span', { id: 'budget-label', class: 'label', 'aria-label': 'Line budget' }, 'Budget'),
      el('span', { class: 'budget-buttons' }, budgetButtons),
      el('span', { class: 'budget-custom' }, el('label', { for: 'budget-custom', class: 'visually-hidden' }, 'Custom line budget'), customInput, customSet),
    ),
    customError,
  );

  function update(state: ScoresState): void {
    instance.textContent = state.instanceId;
    instance.title = state.instanceId;
    const caption = typeof state.groundTruth === 'string' ? state.groundTruth : '';
    groundTruth.textContent = caption === '' ? '' : `Ground truth: ${caption}`;
    groundTruth.dataset['groundTruth'] = caption;
    groundTruth.hidden = caption === '';
    const benchFile = typeof state.bench === 'string' ? state.bench : '';
    bench.textContent = benchCaption(benchFile);
    bench.title = benchFile;
    bench.dataset['bench'] = benchFile;
    bench.hidden = benchFile === '';

    const choice = state.groundTruthChoice;
    const options = choice.options.filter((o) => typeof o.id === 'string' && o.id !== '' && typeof o.label === 'string');
    const optionsKey = JSON.stringify(options);
    if (optionsKey !== groundTruthOptionsKey) {
      groundTruthOptionsKey = optionsKey;
      groundTruthSelect.replaceChildren(...options.map((o) => el('option', { value: o.id }, o.label)), el('option', { value: COMPOSE }, 'what-if: compose rules…'));
    }
    groundTruthSelected = choice.selected;
    if (groundTruthSelect.value !== choice.selected) groundTruthSelect.value = choice.selected;
    groundTruthSelect.dataset['selected'] = choice.selected;
    const pending = typeof choice.pending === 'string' ? `Computing ${choice.pending}…` : '';
    if (groundTruthPending.textContent !== pending) groundTruthPending.textContent = pending;
    groundTruthPending.hidden = pending === '';

    const explorers = state.explorers.filter((name): name is string => typeof name === 'string');
    if (!explorers.includes(state.explorer) && state.explorer !== '') explorers.unshift(state.explorer);
    const key = JSON.stringify(explorers);
    if (key !== explorerOptionsKey) {
      explorerOptionsKey = key;
      explorerSelect.replaceChildren();
      for (const name of explorers) explorerSelect.appendChild(el('option', { value: name }, name));
    }
    if (explorerSelect.value !== state.explorer) explorerSelect.value = state.explorer;
    explorerSelect.disabled = explorers.length < 2;

    if (profileSelect.value !== state.profile) profileSelect.value = state.profile;

    for (const button of budgetButtons) {
      const pressed = Number(button.dataset['budget']) === state.budget;
      button.setAttribute('aria-pressed', String(pressed));
    }
    lastBudget = state.budget;
    syncCustom(state.budget);
  }

  return { element, update };
}
