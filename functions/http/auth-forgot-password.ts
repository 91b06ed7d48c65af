/** POST /api/auth/forgot-password — send a reset code (same answer whether or not the account exists), or set the new password. */
import { authForgotPasswordRoute } from '#core/auth/contract';
import { forgotPassword, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(authForgotPasswordRoute, async ({ body }) => {
  const result = await forgotPassword(signInDeps(await database()), body);
  return { status: result.status === 'code_sent' ? 202 : 200, body: result };
});
