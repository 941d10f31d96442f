import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  CHART_ENVIRONMENTS,
  CHART_PRESET_IDS,
  type ChartCommand,
  type ChartPreset,
  type ChartQuery,
  type ChartView,
  checkRange,
  isChartView,
  presetRange,
  readableUtc,
  utcMs,
  variantKind,
} from '../../src/protocol/concurrency';
import { adoptStyles, el } from '../shared/styles';
import themeCss from '../shared/theme.css';
import { visibleControls as shown } from '../shared/text';
import { startViewApp } from '../shared/viewApp';
import chartCss from './concurrency.css';
import { ChartView as Chart } from './chartView';
import uplotCss from 'uplot/dist/uPlot.min.css';
import { formatTime } from './time';
import { appElement } from '../shared/page';

adoptStyles(themeCss, uplotCss, chartCss);

type Field = HTMLElement & { value: string; checked?: boolean };

const PRESET_LABELS: Record<ChartPreset | 'custom', string> = {
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '24h': 'Last 24 hours',
  '3d': 'Last 3 days',
  '7d': 'Last 7 days',
  custom: 'Custom range',
};

function labelled(id: string, label: string, field: HTMLElement): HTMLElement {
  const group = el('div', { class: 'field' });
  group.append(el('vscode-label', { for: id }, label), field);
  return group;
}

// ---- the page ----
const app = appElement();
const title = el('h1', { class: 'title' });
const preset = el('vscode-single-select', { id: 'preset', 'aria-label': 'Range' }) as Field;
for (const id of [...CHART_PRESET_IDS, 'custom' as const])
  preset.append(el('vscode-option', { value: id }, PRESET_LABELS[id]));
preset.value = 'custom';
const start = el('vscode-textfield', { id: 'start', placeholder: '2026-01-05 09:00' }) as Field;
const end = el('vscode-textfield', { id: 'end', placeholder: '2026-01-05 17:00' }) as Field;
const environment = el('vscode-single-select', { id: 'environment', 'aria-label': 'Environment' }) as Field;
for (const env of CHART_ENVIRONMENTS) environment.append(el('vscode-option', { value: env }, env));
const slice = el('vscode-checkbox', { id: 'slice', label: 'One line per variant' }) as Field;
const variant = el('vscode-textfield', { id: 'variant', placeholder: 'Variant name or id (optional)' }) as Field;
const variantBy = el('vscode-single-select', { id: 'variantBy', 'aria-label': 'Variant by' }) as Field;
variantBy.append(
  el('vscode-option', { value: 'name' }, 'Variant name'),
  el('vscode-option', { value: 'id' }, 'Variant id'),
);
const showButton = el('vscode-button', { id: 'show' }, 'Show');
const problem = el('div', { class: 'problem', role: 'alert' });
const form = el('form', { class: 'query', 'aria-label': 'What to chart' });
form.append(
  labelled('preset', 'Range', preset),
  labelled('start', 'Start (UTC)', start),
  labelled('end', 'End (UTC)', end),
  labelled('environment', 'Environment', environment),
  labelled('variant', 'Variant', variant),
  labelled('variantBy', 'Variant by', variantBy),
  slice,
  showButton,
);
const status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const chart = new Chart();
const deploymentList = el('ul', { class: 'deployments', 'aria-label': 'Deployments in this range' });
const table = el('table', { class: 'data' });
const tableBox = el('vscode-collapsible', { title: 'Data table', class: 'table-box' });
tableBox.append(table);
app.append(title, form, problem, status, chart.element, deploymentList, tableBox);

const { command } = startViewApp<ChartView, ChartCommand>(isChartView, show);
chart.onLayout = (layout) => command({ type: 'layout', layout });

function read(): ChartQuery | undefined {
  const query: ChartQuery = {
    start: start.value.trim(),
    end: end.value.trim(),
    environment: CHART_ENVIRONMENTS.find((e) => e === environment.value) ?? 'live',
    sliceByVariant: slice.checked === true,
    ...(variant.value.trim()
      ? { variant: variant.value.trim(), variantBy: variantBy.value === 'id' ? 'id' : 'name' }
      : {}),
  };
  const wrong = checkRange(query.start, query.end);
  problem.textContent = wrong ?? '';
  return wrong ? undefined : query;
}

function send(): void {
  const query = read();
  if (query) command({ type: 'query', query });
}

preset.addEventListener('change', () => {
  const id = CHART_PRESET_IDS.find((p) => p === preset.value);
  if (!id) return;
  const range = presetRange(id, Date.now());
  start.value = readableUtc(range.start);
  end.value = readableUtc(range.end);
  send();
});
for (const f of [start, end]) f.addEventListener('input', () => (preset.value = 'custom'));
form.addEventListener('submit', (e) => e.preventDefault());
showButton.addEventListener('click', send);
form.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !(e.target instanceof HTMLElement && e.target.tagName === 'VSCODE-BUTTON')) send();
});

let shownQuery = '';
function show(view: ChartView): void {
  title.textContent = `Maximum concurrent conversations: ${shown(view.title)}`;
  // The form follows the view only when the query changed, so typing is never overwritten by a redraw.
  const q = JSON.stringify(view.query);
  if (q !== shownQuery) {
    shownQuery = q;
    start.value = readableUtc(view.query.start);
    end.value = readableUtc(view.query.end);
    environment.value = view.query.environment;
    slice.checked = view.query.sliceByVariant;
    variant.value = view.query.variant ?? '';
    variantBy.value = variantKind(view.query);
    preset.value = presetOf(view.query);
  }
  problem.textContent = view.state === 'failed' ? shown(view.message ?? '') : '';
  status.dataset.state = view.state;
  status.textContent =
    view.state === 'loading'
      ? 'Loading…'
      : view.state === 'ready'
        ? shown([summary(view), view.message, view.note].filter(Boolean).join(' '))
        : '';
  const points = chart.show(view.state === 'ready' ? view : undefined);
  showDeployments(view);
  showTable(view);
  if (view.state === 'ready') command({ type: 'drawn', points });
}

/** The preset a range is (it ends at the current 5-minute boundary and is as long), or custom. */
function presetOf(q: ChartQuery): string {
  return (
    CHART_PRESET_IDS.find((id) => {
      const r = presetRange(id, Date.now());
      return r.end === new Date(utcMs(q.end)).toISOString() && r.start === new Date(utcMs(q.start)).toISOString();
    }) ?? 'custom'
  );
}

function summary(view: ChartView): string {
  if (!view.times.length) return '';
  const peaks = view.series.map((s) => {
    let best = 0;
    s.values.forEach((v, i) => {
      if (v > s.values[best]!) best = i;
    });
    return `${shown(s.label)}: peak ${s.values[best] ?? 0} at ${formatTime(view.times[best]!)}`;
  });
  return `${view.times.length} five-minute windows from ${formatTime(view.times[0]!)} to ${formatTime(view.times.at(-1)!)}. ${peaks.join('; ')}.`;
}

function showDeployments(view: ChartView): void {
  deploymentList.replaceChildren(
    ...view.deployments.map((d) => el('li', {}, `${formatTime(d.time)}: deployment, ${shown(d.label)}`)),
  );
  deploymentList.hidden = view.deployments.length === 0;
}

/** The same numbers as the chart, for screen readers and for reading exact values. */
function showTable(view: ChartView): void {
  const head = el('tr');
  head.append(
    el('th', { scope: 'col' }, 'Window start (UTC)'),
    ...view.series.map((s) => el('th', { scope: 'col' }, shown(s.label))),
  );
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  const rows = view.times.map((t, i) => {
    const row = el('tr');
    row.append(
      el('th', { scope: 'row' }, formatTime(t)),
      ...view.series.map((s) => el('td', {}, String(s.values[i] ?? 0))),
    );
    return row;
  });
  tbody.append(...rows);
  table.replaceChildren(el('caption', {}, 'Maximum concurrent conversations per 5-minute window'), thead, tbody);
  tableBox.hidden = view.state !== 'ready' || view.times.length === 0;
}
