/** POST /api/auth/new-password — an invited user's first sign-in: the new password replacing the temporary one. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { setNewPassword, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { newPasswordBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const input = parseWith(newPasswordBodySchema, body);
  return { body: await setNewPassword(signInDeps(await database()), input, requestOrigin(event)) };
});
