/** A minimal typed event emitter, so the store stays free of the `vscode` module and unit-testable. */
export interface Disposable {
  dispose(): void;
}

export class Emitter<T> implements Disposable {
  private listeners = new Set<(event: T) => void>();

  /** Subscribes; the returned disposable unsubscribes. */
  readonly event = (listener: (event: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Calls every listener; one that throws is reported and does not keep the others from running. */
  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('SWE-Explore: a store listener failed', error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
