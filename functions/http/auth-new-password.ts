/** POST /api/auth/new-password — an invited user's first sign-in: the new password replacing the temporary one. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { LOGIN_FAILED, parseSignInBody, setNewPassword, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { newPasswordBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const deps = signInDeps(await database());
  const origin = requestOrigin(event);
  const input = await parseSignInBody(deps.db, newPasswordBodySchema, body, origin, { action: LOGIN_FAILED, stage: 'new_password' });
  return { body: await setNewPassword(deps, input, origin) };
}, { auditsEveryAttempt: true });
