import { el } from './styles';

/** A form field with its label above it. */
export function labelled(id: string, label: string, field: HTMLElement): HTMLElement {
  const group = el('div', { class: 'field' });
  group.append(el('vscode-label', { for: id }, label), field);
  return group;
}

export type Button = HTMLElement & { disabled: boolean };

/** A secondary button reachable with Tab, with its id `action-<name>` and a title that says what it does. */
export function actionButton(name: string, label: string, title: string, onClick: () => void): Button {
  const b = el('vscode-button', { secondary: '', title, id: `action-${name}` }, label) as Button;
  b.addEventListener('click', () => onClick());
  return b;
}

/**
 * Notes when a change reached the page and tells the host a little later, with others, so the telling
 * costs what it measures nothing (benchmarks and tests ask for it).
 */
export class PaintReporter {
  private paints: Array<{ seq: number; at: number }> = [];

  constructor(
    private readonly tell: (paints: Array<{ seq: number; at: number }>) => void,
    /** Epoch milliseconds, sub-millisecond. */
    private readonly now: () => number = () => performance.timeOrigin + performance.now(),
  ) {}

  painted(seq: number): void {
    this.paints.push({ seq, at: this.now() });
    if (this.paints.length > 1) return;
    setTimeout(() => {
      const told = this.paints;
      this.paints = [];
      this.tell(told);
    }, 50);
  }
}
