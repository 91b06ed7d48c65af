/** Path routing over the History API: the app's screens are real URLs, so a refresh or a shared link lands on the same screen. */
import { signal } from './signal';

export const path = signal(window.location.pathname);

export const navigate = (to: string): void => {
  if (to === window.location.pathname) return;
  window.history.pushState(null, '', to);
  path.set(to);
  window.scrollTo(0, 0);
};

window.addEventListener('popstate', () => path.set(window.location.pathname));

/** `pattern` like /investigations/:id; the parameters when `pathname` matches it. */
export const match = (pattern: string, pathname: string): Record<string, string> | undefined => {
  const want = pattern.split('/');
  const have = pathname.replace(/\/$/, '').split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(h);
    else if (w !== h) return undefined;
  }
  return params;
};

/** A same-app link: a click navigates without a reload; modified clicks (new tab) stay the browser's. */
export const onLink = (event: MouseEvent): void => {
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? undefined;
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  navigate(new URL(anchor.href).pathname);
};
