/** A call that waits until its triggers have been quiet for a while (file watchers fire in bursts). */
import type { DisposableLike } from './lifecycle';

export class Debounced implements DisposableLike {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly run: () => void,
  ) {}

  /** Runs `run` once `delayMs` have passed without another call. */
  schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.delayMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
