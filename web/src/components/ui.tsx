/** Small shared pieces: loading state, problems, badges that carry their meaning in text (colour is never the only signal). */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api';

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` on mount and when `deps` change; `reload` runs it again. A later answer replaces an earlier one, never the reverse. */
export const useLoad = <T,>(load: () => Promise<T>, deps: unknown[]): Loaded<T> => {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: messageOf(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // biome-ignore lint: deps are the caller's
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
};

export const Problem = ({ message }: { message?: string }) =>
  message ? (
    <p class="problem" role="alert">
      {message}
    </p>
  ) : null;

export const Busy = ({ label }: { label: string }) => (
  <p class="busy" role="status">
    <span class="spinner" aria-hidden="true" />
    {label}
  </p>
);

export const Badge = ({ color, children, title }: { color: string; children: ComponentChildren; title?: string }) => (
  <span class={`badge badge-${color}`} title={title}>
    {children}
  </span>
);

export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;

export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export const Loading = <T,>({ state, label, children }: { state: Loaded<T>; label: string; children: (data: T) => ComponentChildren }) => {
  if (state.error) return <Problem message={state.error} />;
  if (state.data === undefined) return <Busy label={`Loading ${label}…`} />;
  return <>{children(state.data)}</>;
};

/** A table that may be wider than the screen: it scrolls sideways, and keyboard users can focus it to scroll. */
export const TableScroll = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);
