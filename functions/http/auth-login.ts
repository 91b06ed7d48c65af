/** POST /api/auth/login — password sign-in (tokens or an MFA challenge), or the start of a passkey sign-in. */
import { authLoginRoute } from '#core/auth/contract';
import { requestOrigin } from '#core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, login, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  authLoginRoute,
  async ({ event, body }) => ({
    body: await login(signInDeps(await database()), body, requestOrigin(event)),
  }),
  { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'password' }) },
);
