/**
 * Lifecycle base for everything the extension creates: a component registers what it owns
 * (event subscriptions, emitters, decoration types, child components) once, and one `dispose()`
 * releases all of it in reverse order. Free of the `vscode` module so that the store can use it
 * and stay unit-testable; `vscode.Disposable` satisfies the same interface.
 */
import type { Disposable as DisposableLike } from './emitter';

export type { DisposableLike };

export abstract class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  /** Takes ownership of `item`; if this component is already disposed, disposes `item` at once. */
  protected register<T extends DisposableLike>(item: T): T {
    if (this.disposed) item.dispose();
    else this.owned.push(item);
    return item;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Reverse order: what was registered last may depend on what came before.
    for (let i = this.owned.length - 1; i >= 0; i--) {
      try {
        this.owned[i]!.dispose();
      } catch (error) {
        console.error('SWE-Explore: disposing a resource failed', error);
      }
    }
    this.owned.length = 0;
  }
}
