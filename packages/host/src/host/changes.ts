/**
 * What changed in a host, for whoever serves it: the surface (what some
 * selection serves — an extension enabled, disabled, added or woken, or the
 * built servers forgotten) or one resource's content. The HTTP app turns
 * these into `subscriptions/listen` notifications on its event bus.
 */

/** One change a host reports. */
export type HostChange =
  /** What a selection serves may differ now: tools, prompts and resources are listed afresh. */
  | { readonly kind: 'surface' }
  /** The resource at `uri` changed (`host.notifyResourceUpdated`). */
  | { readonly kind: 'resource_updated'; readonly uri: string }
  /**
   * `host.enable(name)` or `host.disable(name)` was called (a `surface`
   * change follows). For sharing the toggle with other replicas; it is no
   * notification of its own.
   */
  | { readonly kind: 'toggled'; readonly name: string; readonly enabled: boolean };

/** A listener of host changes. */
export type HostChangeListener = (change: HostChange) => void;

/** The listeners of one host's changes: synchronous, a throwing listener costs only itself. */
export class ChangeFeed {
  private readonly listeners = new Set<HostChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Registers a listener; returns an idempotent unsubscribe. */
  watch(listener: HostChangeListener): () => void {
    // A wrapper per registration, so one listener registered twice is two registrations.
    const entry: HostChangeListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(change: HostChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
