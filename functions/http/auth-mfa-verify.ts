/** POST /api/auth/mfa/verify — the code answering a totp or sms challenge of /api/auth/login. */
import { authMfaVerifyRoute } from '#core/auth/contract';
import { requestOrigin } from '#core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, verifyMfa, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  authMfaVerifyRoute,
  async ({ event, body }) => ({
    body: await verifyMfa(signInDeps(await database()), body, requestOrigin(event)),
  }),
  { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'mfa' }) },
);
