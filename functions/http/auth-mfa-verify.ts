/** POST /api/auth/mfa/verify — the code answering a totp or sms challenge of /api/auth/login. */
import { authMfaVerifyRoute } from '../../layers/core/auth/contract';
import { requestOrigin } from '../../layers/core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, verifyMfa, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(authMfaVerifyRoute, async ({ event, body }) => ({
  body: await verifyMfa(signInDeps(await database()), body, requestOrigin(event)),
}), { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'mfa' }) });
