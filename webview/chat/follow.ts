/** How close to its end a scroll area counts as at its end. */
const AT_END_PX = 48;

/**
 * Whether a scroll area follows its newest content: true while the person is at its end. It is kept from
 * scroll events, so that content arriving never has to read the layout to know. Content growing does not
 * scroll; following scrolls down; only the person (or a list correcting its estimates) scrolls up, and that
 * ends following unless the view stays near the end. Scrolling back to the end follows again.
 */
export class EndFollower {
  private following = true;
  private scrolledTo = 0;

  constructor(private readonly area: HTMLElement) {
    area.addEventListener(
      'scroll',
      () => {
        const top = area.scrollTop;
        if (top < this.scrolledTo - 1 || !this.following)
          this.following = area.scrollHeight - top - area.clientHeight < AT_END_PX;
        this.scrolledTo = top;
      },
      { passive: true },
    );
  }

  get isFollowing(): boolean {
    return this.following;
  }

  /** Shows the end, when following (call once the new content is laid out). */
  keep(): void {
    if (this.following) this.area.scrollTop = this.area.scrollHeight;
  }
}
