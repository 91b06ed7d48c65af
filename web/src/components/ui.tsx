/**
 * Small shared pieces: loading and watching state, problems, badges that carry their meaning in text (colour is never
 * the only signal), a confirmation step before a consequential action.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api';
import { ingestionStep } from '../poll';

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

/** One page of a listing: its rows and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * `useLoad` over a paged listing: the first page, then one more each time `more` is called; a reload (or a change
 * of `deps`) reads again as many pages as are shown, so a list a person has opened up stays open while it refreshes.
 */
export const usePages = <T,>(loadPage: (cursor: string | undefined) => Promise<Page<T>>, deps: unknown[]) => {
  const [pages, setPages] = useState(1);
  const state = useLoad(async (): Promise<Page<T>> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < pages; n++) {
      const page = await loadPage(cursor);
      items.push(...page.items);
      cursor = page.next_cursor ?? undefined;
      if (!cursor) break;
    }
    return { items, next_cursor: cursor ?? null };
  }, [...deps, pages]);
  return { ...state, more: () => setPages((n) => n + 1) };
};

/** The button under a paged list while more pages remain: how many are shown, and the way to the rest. */
export const ShowMore = ({ shown, next, loading, onMore }: { shown: string; next: string | null; loading: boolean; onMore: () => void }) =>
  next ? (
    <p class="more">
      <span class="meta">Showing the first {shown}.</span>{' '}
      <button type="button" class="secondary" disabled={loading} onClick={onMore}>
        Show more
      </button>
    </p>
  ) : null;

/**
 * `useLoad` that loads again while `busy` says the answer is still changing, by the ingestion polling rule (poll.ts);
 * `timedOut` when it stopped watching with the answer still busy. `reload` starts watching again (after a change).
 */
export const useWatched = <T,>(load: () => Promise<T>, busy: (data: T) => boolean, deps: unknown[]): Loaded<T> & { timedOut: boolean } => {
  const [state, setState] = useState<{ data?: T; error?: string; timedOut: boolean }>({ timedOut: false });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const started = Date.now();
    const check = async () => {
      let stillBusy = true;
      try {
        const data = await load();
        if (!current) return;
        stillBusy = busy(data);
        setState({ data, timedOut: false });
      } catch (error) {
        if (!current) return;
        setState((s) => ({ ...s, error: messageOf(error) }));
      }
      const step = ingestionStep(stillBusy, Date.now() - started);
      if (step.next === 'wait') timer = setTimeout(check, step.inMs);
      if (step.next === 'timeout') setState((s) => ({ ...s, timedOut: true }));
    };
    void check();
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // biome-ignore lint: deps are the caller's
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, loading: state.data === undefined && state.error === undefined, reload };
};

/** The API's message, with the fields it names (validation details, `{ path, message }[]`); `nameOf` may say a path in words. */
export const withDetails = (error: unknown, nameOf: (path: string) => string = (path) => path): string => {
  const details = (error as { details?: unknown }).details;
  const lines = Array.isArray(details)
    ? details.map((d: { path?: unknown; message?: unknown }) => `${nameOf(String(d.path ?? ''))}: ${String(d.message ?? '')}`)
    : [];
  return [messageOf(error), ...lines].join(' ');
};

/**
 * A user's action in flight: `run` clears the last problem, marks the action working (with `step` when a screen
 * says which one), and keeps the API's message when it fails (`describe` may add the fields it names).
 */
export const useAction = <Step = true>(describe: (error: unknown) => string = messageOf) => {
  const [working, setWorking] = useState<Step>();
  const [problem, setProblem] = useState<string>();
  const run = async (action: () => Promise<unknown>, step?: Step): Promise<void> => {
    setProblem(undefined);
    setWorking(step ?? (true as Step));
    try {
      await action();
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setWorking(undefined);
    }
  };
  return { working, problem, setProblem, run };
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

/** "1 file", "3 files": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A date without its time (a collected date is a day; shown as given, whatever the browser's time zone). */
export const day = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' }) : '—';

export const Loading = <T,>({ state, label, children }: { state: Loaded<T>; label: string; children: (data: T) => ComponentChildren }) => {
  if (state.error) return <Problem message={state.error} />;
  if (state.data === undefined) return <Busy label={`Loading ${label}…`} />;
  return <>{children(state.data)}</>;
};

/** A table that may be wider than the screen: it scrolls sideways, and keyboard users can focus it to scroll. */
const TableScroll = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
    {children}
  </div>
);

/** A data table in its scroll region: a caption when given, a header row of `columns`, the rows as children. */
export const Table = ({
  label,
  caption,
  columns,
  class: className,
  children,
}: {
  label: string;
  caption?: ComponentChildren;
  columns: ComponentChildren[];
  class?: string;
  children: ComponentChildren;
}) => (
  <TableScroll label={label}>
    <table class={className}>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </TableScroll>
);

/**
 * A panel that opens on its heading (a native disclosure), open at first when `open` says so: a form an empty
 * investigation needs at once, folded away once there is something to read. Later renders never fold it under the
 * person using it.
 */
export const FoldingPanel = ({ id, title, open, children }: { id: string; title: string; open: boolean; children: ComponentChildren }) => {
  const [openAtFirst] = useState(open);
  return (
    <details class="panel folding" open={openAtFirst}>
      <summary>
        <h2 id={id}>{title}</h2>
      </summary>
      {children}
    </details>
  );
};

/** A button that asks before it acts (inline, no dialog): the question, then a confirming and a cancelling button. */
export const Confirm = ({
  label,
  question,
  confirm,
  disabled,
  onConfirm,
}: {
  label: string;
  question: ComponentChildren;
  confirm: string;
  disabled?: boolean;
  onConfirm: () => void;
}) => {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="secondary" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <div class="confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={disabled}
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirm}
        </button>
        <button type="button" class="secondary" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
};
