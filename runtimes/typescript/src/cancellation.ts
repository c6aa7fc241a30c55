// A cheap cancellation channel from a transport to the dispatcher answering one message. Node takes several
// microseconds to make an AbortSignal (about 6 µs each on the 2-core machine this is developed on: more than
// the router and dispatcher spend on a request), so the transports make one of these per request instead:
// a flag, a reason and the listeners. An AbortSignal is made only for whoever reads `signal`.

/** Told once when the transport gives a request up. */
export interface Cancellation {
  readonly cancelled: boolean;
  /** Why, once cancelled. */
  readonly reason: unknown;
  /** Call `listener` once when cancelled (at once when it is already); the returned function unsubscribes. */
  onCancel(listener: (reason: unknown) => void): () => void;
}

const unsubscribed = (): void => undefined;

/** The transport's side of a Cancellation: `cancel` tells every listener once. */
export class CancellationSource implements Cancellation {
  cancelled = false;
  reason: unknown = undefined;
  private listeners: Array<(reason: unknown) => void> | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }

  onCancel(listener: (reason: unknown) => void): () => void {
    if (this.cancelled) {
      listener(this.reason);
      return unsubscribed;
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.listeners!.splice(at, 1);
    };
  }

  /** An AbortSignal that aborts with this source, made on first read. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}
