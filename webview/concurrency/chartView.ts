import uPlot from 'uplot';
import type { ChartLabelBox, ChartLayout, ChartView as View } from '../../src/protocol/concurrency';
import { el } from '../shared/styles';
import { visibleControls as shown } from '../shared/text';
import { formatTime } from './time';
import { layoutLabels } from './labelLayout';

/** Series colours from the editor's chart palette, so the chart follows the theme. */
const PALETTE = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'].map((c) => `--vscode-charts-${c}`);
/** Steps of the value axis: 1, 2, 5, 10, 20, 50, ... */
const WHOLE_STEPS = Array.from({ length: 18 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));
const HEIGHT = 320;
/** Rows of deployment labels at the top of the plot, and the height of one, CSS pixels. */
const LABEL_ROWS = 3;
const LABEL_ROW_HEIGHT = 15;

/** The editor marks a High Contrast theme on the body's class (dark and light). */
function highContrast(): boolean {
  return (
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light')
  );
}

/** A CSS colour as the browser reads it (rgb(...)), so two ways of writing one colour compare equal. */
function computedColour(c: string): string {
  const probe = document.createElement('span');
  probe.style.color = c;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

/**
 * The time-series chart (uPlot on a canvas): one line per series, deployments as dashed vertical
 * lines labelled with their version, values at the cursor in the legend and in a readout. Reachable
 * with Tab; the arrow keys move the cursor one window at a time (Home and End to the ends), and the
 * readout says the window's values aloud.
 */
export class ChartView {
  readonly element = el('section', { class: 'chart-box', 'aria-label': 'Chart' });
  private readonly plotBox = el('div', {
    class: 'plot',
    tabindex: '0',
    role: 'img',
    'aria-roledescription': 'chart',
  });
  private readonly readout = el('div', { class: 'readout', 'aria-live': 'polite' });
  private plot: uPlot | undefined;
  private view: View | undefined;
  private index = -1;
  /** Told what was drawn each time the chart is drawn (a new view, a theme change). */
  onLayout: (layout: ChartLayout) => void = () => undefined;
  private colours: Pick<ChartLayout, 'grid' | 'series' | 'highContrast'> = {
    grid: '',
    series: [],
    highContrast: false,
  };
  private labels: ChartLabelBox[] = [];

  constructor() {
    this.element.append(this.plotBox, this.readout);
    this.plotBox.addEventListener('keydown', (e) => this.key(e));
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(this.element);
    // The editor marks a theme change on the body's class: draw again in the new colours.
    new MutationObserver(() => this.draw()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** Draws a view (or clears the chart); returns how many points were drawn. */
  show(view: View | undefined): number {
    this.view = view && view.times.length ? view : undefined;
    this.index = -1;
    this.draw();
    return this.view ? this.view.times.length * this.view.series.length : 0;
  }

  private width(): number {
    return Math.max(300, this.element.clientWidth || 600);
  }

  private draw(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.plotBox.replaceChildren();
    this.readout.textContent = '';
    const view = this.view;
    this.element.hidden = !view;
    if (!view) return;
    this.plotBox.setAttribute(
      'aria-label',
      `Maximum concurrent conversations per 5-minute window, ${shown(view.title)}. Use the arrow keys to read each window.`,
    );
    const fg = cssVar('--vscode-foreground', '#888');
    const hc = highContrast();
    // In High Contrast themes the widget border is the contrast border, which may be the colour of a series: the
    // grid takes the contrast border, dotted, and the series take the chart palette without that colour.
    const grid = hc
      ? cssVar('--vscode-contrastBorder', cssVar('--vscode-editorWidget-border', fg))
      : cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const palette = PALETTE.map((v) => cssVar(v, fg));
    const gridColour = computedColour(grid);
    const seriesColours = palette.filter((c) => computedColour(c) !== gridColour);
    const seriesColour = (i: number): string => (seriesColours.length ? seriesColours[i % seriesColours.length]! : fg);
    this.colours = {
      grid: gridColour,
      series: view.series.map((_, i) => computedColour(seriesColour(i))),
      highContrast: hc,
    };
    const marker = cssVar('--vscode-charts-red', '#e51400');
    const font = getComputedStyle(document.body).fontFamily || 'sans-serif';
    const axis = {
      stroke: fg,
      grid: { stroke: grid, width: 1, ...(hc ? { dash: [1, 3] } : {}) },
      ticks: { stroke: grid, width: 1 },
      font: `11px ${font}`,
    };
    const deployments = view.deployments;
    const opts: uPlot.Options = {
      width: this.width(),
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
      series: [
        { label: 'Window (UTC)', value: (_u, v) => (v == null ? '' : formatTime(v * 1e3)) },
        ...view.series.map((s, i) => ({
          label: shown(s.label),
          stroke: seriesColour(i),
          width: hc ? 2.5 : 1.5,
          points: { show: false },
        })),
      ],
      // Conversations are counted whole: the value axis has whole-number steps only.
      axes: [axis, { ...axis, label: 'Concurrent conversations', labelFont: `12px ${font}`, incrs: WHOLE_STEPS }],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            const dpr = devicePixelRatio;
            ctx.save();
            ctx.strokeStyle = marker;
            ctx.fillStyle = marker;
            ctx.lineWidth = dpr;
            ctx.setLineDash([4 * dpr, 3 * dpr]);
            const lines: Array<{ x: number; d: (typeof deployments)[number] }> = [];
            for (const d of deployments) {
              const x = Math.round(u.valToPos(d.time / 1e3, 'x', true));
              if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              lines.push({ x: (x - u.bbox.left) / dpr, d });
            }
            ctx.restore();
            this.placeLabels(u, lines, marker);
            this.onLayout({ ...this.colours, labels: this.labels });
          },
        ],
        setCursor: [(u) => this.say(u.cursor.idx ?? -1)],
      },
    };
    const data: uPlot.AlignedData = [view.times.map((t) => t / 1e3), ...view.series.map((s) => s.values)];
    this.plot = new uPlot(opts, data, this.plotBox);
  }

  /**
   * The deployments' labels as elements over the plot (each with a tooltip), laid out so none covers another; a
   * deployment whose label has no room is a marker whose tooltip names it.
   */
  private placeLabels(
    u: uPlot,
    lines: ReadonlyArray<{ x: number; d: View['deployments'][number] }>,
    colour: string,
  ): void {
    u.over.querySelector('.deploy-labels')?.remove();
    const layer = el('div', { class: 'deploy-labels', 'aria-hidden': 'true' });
    layer.style.color = colour;
    u.over.append(layer);
    const spans = lines.map(({ d }) => {
      const span = el(
        'span',
        { class: 'deploy-label', title: shown(d.label) },
        shown(`v${d.version} ${d.environment}`),
      );
      layer.append(span);
      return span;
    });
    const places = layoutLabels(
      lines.map(({ x }, i) => ({ x, width: spans[i]!.offsetWidth })),
      { width: u.over.clientWidth, rows: LABEL_ROWS, gap: 3 },
    );
    places.forEach((place, i) => {
      const span = spans[i]!;
      if ('marker' in place) {
        span.className = 'deploy-marker';
        span.textContent = '';
        span.style.left = `${lines[i]!.x - 4}px`;
        span.style.top = `${LABEL_ROWS * LABEL_ROW_HEIGHT + 2}px`;
      } else {
        span.style.left = `${place.left}px`;
        span.style.top = `${2 + place.row * LABEL_ROW_HEIGHT}px`;
      }
    });
    const origin = u.over.getBoundingClientRect();
    this.labels = spans.map((span, i) => {
      const r = span.getBoundingClientRect();
      return {
        text: span.title,
        left: r.left - origin.left,
        top: r.top - origin.top,
        width: r.width,
        height: r.height,
        marker: 'marker' in places[i]!,
      };
    });
  }

  /** The readout of a window: its time, each series' value, and a deployment made in it. */
  private say(i: number): void {
    const view = this.view;
    if (!view || i < 0 || i >= view.times.length) return;
    this.index = i;
    const t = view.times[i]!;
    const values = view.series.map((s) => `${shown(s.label)} ${s.values[i] ?? 0}`).join(', ');
    const deployed = view.deployments.filter((d) => d.time >= t && d.time < t + 5 * 60_000).map((d) => shown(d.label));
    this.readout.textContent = `${formatTime(t)}: ${values}${deployed.length ? `. Deployed: ${deployed.join(', ')}` : ''}`;
  }

  private key(e: KeyboardEvent): void {
    const view = this.view;
    const plot = this.plot;
    if (!view || !plot) return;
    const last = view.times.length - 1;
    const step = e.shiftKey ? 12 : 1;
    const next =
      e.key === 'ArrowRight'
        ? Math.min(last, this.index + step)
        : e.key === 'ArrowLeft'
          ? Math.max(0, (this.index < 0 ? last + 1 : this.index) - step)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const left = plot.valToPos(view.times[next]! / 1e3, 'x');
    const top = plot.valToPos(Math.max(...view.series.map((s) => s.values[next] ?? 0)), 'y');
    plot.setCursor({ left, top });
    this.say(next);
  }
}
