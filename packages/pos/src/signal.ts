import { useEffect, useState } from 'preact/hooks';

/** A value the screens watch: the network state, the signed-in user, the outbox. */
export interface Signal<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSignal<T>(s: Signal<T>): T {
  const [, setSeen] = useState(0);
  useEffect(() => s.subscribe(() => setSeen((n) => n + 1)), [s]);
  return s.get();
}
