/** POST /api/auth/new-password — an invited user's first sign-in: the new password replacing the temporary one. */
import { authNewPasswordRoute } from '#core/auth/contract';
import { requestOrigin } from '#core/auth/origin';
import { auditRefusedSignIn, LOGIN_FAILED, setNewPassword, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  authNewPasswordRoute,
  async ({ event, body }) => ({
    body: await setNewPassword(signInDeps(await database()), body, requestOrigin(event)),
  }),
  { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'new_password' }) },
);
