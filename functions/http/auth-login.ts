/** POST /api/auth/login — password sign-in (tokens or an MFA challenge), or the start of a passkey sign-in. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { login, LOGIN_FAILED, parseSignInBody, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { loginBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const deps = signInDeps(await database());
  const origin = requestOrigin(event);
  const input = await parseSignInBody(deps.db, loginBodySchema, body, origin, { action: LOGIN_FAILED, stage: 'password' });
  return { body: await login(deps, input, origin) };
}, { auditsEveryAttempt: true });
