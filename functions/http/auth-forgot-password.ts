/** POST /api/auth/forgot-password — send a reset code (same answer whether or not the account exists), or set the new password. */
import { forgotPassword, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { forgotPasswordBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ body }) => {
  const input = parseWith(forgotPasswordBodySchema, body);
  const result = await forgotPassword(signInDeps(await database()), input);
  return { status: result.status === 'code_sent' ? 202 : 200, body: result };
});
