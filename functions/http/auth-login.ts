/** POST /api/auth/login — password sign-in (tokens or an MFA challenge), or the start of a passkey sign-in. */
import { authLoginRoute } from '../../layers/core/auth/contract';
import { requestOrigin } from '../../layers/core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, login, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(authLoginRoute, async ({ event, body }) => ({
  body: await login(signInDeps(await database()), body, requestOrigin(event)),
}), { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'password' }) });
