/** POST /api/auth/mfa/setup — the first code of the authenticator enrolled at the mfa_setup challenge; tokens or the next step. */
import { authMfaSetupRoute } from '#core/auth/contract';
import { requestOrigin } from '#core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, setUpMfa, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  authMfaSetupRoute,
  async ({ event, body }) => ({
    body: await setUpMfa(signInDeps(await database()), body, requestOrigin(event)),
  }),
  { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'mfa_setup' }) },
);
