/** A value components can subscribe to (useSignal): the session and the route are the app's only global state. */
import { useEffect, useState } from 'preact/hooks';

export interface Signal<T> {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: (value: T) => void) => () => void;
}

export const signal = <T>(initial: T): Signal<T> => {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set: (next) => {
      value = next;
      for (const listener of listeners) listener(next);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};

export const useSignal = <T>(s: Signal<T>): T => {
  const [value, setValue] = useState(s.get());
  useEffect(() => s.subscribe(setValue), [s]);
  return value;
};
