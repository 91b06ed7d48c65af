/** POST /api/auth/login — password sign-in (tokens or an MFA challenge), or the start of a passkey sign-in. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { login, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { loginBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const input = parseWith(loginBodySchema, body);
  return { body: await login(signInDeps(await database()), input, requestOrigin(event)) };
});
