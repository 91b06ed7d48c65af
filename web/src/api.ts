/**
 * The app's one way to the API: the typed client (web/api/client.ts, generated from the OpenAPI document)
 * with the session's bearer, its answers unwrapped into data or an `ApiProblem` carrying the API's message.
 * Where the API lives comes from /config.json (the deployed stack writes the API's URL there; the twin serves
 * the app and the API on one origin, so it answers an empty base).
 */
import { apiClient } from '../api/client';
import { session, signOut } from './session';

class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let baseUrl = '';
const connect = () => apiClient(baseUrl || window.location.origin, () => session.get()?.accessToken);
export let client = connect();

export const loadConfig = async (): Promise<void> => {
  try {
    const response = await fetch('/config.json', { cache: 'no-store' });
    if (response.ok) baseUrl = ((await response.json()) as { apiBaseUrl?: string }).apiBaseUrl?.replace(/\/$/, '') ?? '';
  } catch {
    // no config: the API is on this origin
  }
  client = connect();
};

type Answer<T> = { data?: T; error?: unknown; response: Response };

const problemOf = (status: number, error: unknown): ApiProblem => {
  const body = error as { error?: { code?: string; message?: string; details?: unknown }; message?: string } | undefined;
  if (body?.error?.message) return new ApiProblem(status, body.error.code ?? 'error', body.error.message, body.error.details);
  if (status === 401) return new ApiProblem(status, 'unauthorized', 'Your session has ended. Sign in again.');
  if (status === 429) return new ApiProblem(status, 'too_many_requests', 'Too many requests. Wait a moment and try again.');
  if (status >= 500) return new ApiProblem(status, 'unavailable', 'The service is not answering right now. Try again in a moment.');
  return new ApiProblem(status, 'error', body?.message ?? `The request failed (${status}).`);
};

/** The answer's data, or an ApiProblem; a 401 ends the session (the token expired or was revoked). */
export const unwrap = async <T>(call: Promise<Answer<T>>): Promise<T> => {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiProblem(0, 'network', 'The service cannot be reached. Check your connection and try again.');
  }
  if (answer.error !== undefined || !answer.response.ok) {
    if (answer.response.status === 401 && session.get()) signOut();
    throw problemOf(answer.response.status, answer.error);
  }
  return answer.data as T;
};

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
