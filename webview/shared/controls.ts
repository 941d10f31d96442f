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

/** A change in the page: when (epoch ms), and how long after its message reached the page (ms), when known. */
export interface Paint {
  seq: number;
  at: number;
  inPage?: number;
}

/**
 * Notes when a change reached the page and tells the host a little later, with others, so the telling
 * costs what it measures nothing (benchmarks and tests ask for it).
 */
export class PaintReporter {
  private paints: Paint[] = [];

  constructor(
    private readonly tell: (paints: Paint[]) => void,
    /** Epoch milliseconds, sub-millisecond. */
    private readonly now: () => number = () => performance.timeOrigin + performance.now(),
  ) {}

  /** `arrivedAt` (performance.now()): when the message with the change reached the page, to tell the page's own part. */
  painted(seq: number, arrivedAt?: number): void {
    const at = this.now();
    this.paints.push({ seq, at, ...(arrivedAt === undefined ? {} : { inPage: performance.now() - arrivedAt }) });
    if (this.paints.length > 1) return;
    setTimeout(() => {
      const told = this.paints;
      this.paints = [];
      this.tell(told);
    }, 50);
  }
}
