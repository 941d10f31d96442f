import uPlot from 'uplot';
import type { ChartView as View } from '../../src/protocol/concurrency';
import { el } from '../shared/styles';
import { visibleControls as shown } from '../shared/text';
import { formatTime } from './time';

/** Series colours from the editor's chart palette, so the chart follows the theme. */
const PALETTE = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'].map((c) => `--vscode-charts-${c}`);
/** Steps of the value axis: 1, 2, 5, 10, 20, 50, ... */
const WHOLE_STEPS = Array.from({ length: 18 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));
const HEIGHT = 320;

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
    const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const marker = cssVar('--vscode-charts-red', '#e51400');
    const font = getComputedStyle(document.body).fontFamily || 'sans-serif';
    const axis = {
      stroke: fg,
      grid: { stroke: grid, width: 1 },
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
          stroke: cssVar(PALETTE[i % PALETTE.length]!, fg),
          width: 1.5,
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
            ctx.font = `${11 * dpr}px ${font}`;
            // Labels of deployments close together are stacked, not drawn over each other.
            const stacked = new Map<number, number>();
            for (const d of deployments) {
              const x = Math.round(u.valToPos(d.time / 1e3, 'x', true));
              if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
              const bucket = Math.round(x / (40 * dpr));
              const row = stacked.get(bucket) ?? 0;
              stacked.set(bucket, row + 1);
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              const text = shown(`v${d.version} ${d.environment}`);
              const w = ctx.measureText(text).width;
              const tx = x + 3 * dpr + w > u.bbox.left + u.bbox.width ? x - 3 * dpr - w : x + 3 * dpr;
              ctx.fillText(text, tx, u.bbox.top + (12 + row * 13) * dpr);
            }
            ctx.restore();
          },
        ],
        setCursor: [(u) => this.say(u.cursor.idx ?? -1)],
      },
    };
    const data: uPlot.AlignedData = [view.times.map((t) => t / 1e3), ...view.series.map((s) => s.values)];
    this.plot = new uPlot(opts, data, this.plotBox);
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
