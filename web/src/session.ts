/**
 * The signed-in session: the tokens of the last sign-in, kept in sessionStorage (one tab's life, never
 * localStorage: a token outlives no browser session). Who the user is comes from the ID token's claims, for
 * display and navigation only; every permission is decided by the API.
 */
import { signal } from './signal';

export interface Session {
  accessToken: string;
  idToken: string;
  expiresAt: number;
  email: string;
  admin: boolean;
}

const KEY = 'ias.session';

const claimsOf = (jwt: string): Record<string, unknown> => {
  const payload = jwt.split('.')[1] ?? '';
  const bytes = Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
};

const read = (): Session | undefined => {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return stored && stored.expiresAt > Date.now() ? stored : undefined;
  } catch {
    return undefined;
  }
};

export const session = signal<Session | undefined>(read());

export const signIn = (tokens: { access_token: string; id_token: string; expires_in: number }): void => {
  const claims = claimsOf(tokens.id_token);
  const groups = (claims['cognito:groups'] as string[] | undefined) ?? [];
  const next: Session = {
    accessToken: tokens.access_token,
    idToken: tokens.id_token,
    expiresAt: Date.now() + tokens.expires_in * 1000,
    email: String(claims.email ?? ''),
    admin: groups.includes('admin'),
  };
  sessionStorage.setItem(KEY, JSON.stringify(next));
  session.set(next);
};

export const signOut = (): void => {
  sessionStorage.removeItem(KEY);
  session.set(undefined);
};
