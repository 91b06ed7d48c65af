/** POST /api/auth/mfa/verify — the code answering a totp or sms challenge of /api/auth/login. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { signInDeps, verifyMfa } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { mfaBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const input = parseWith(mfaBodySchema, body);
  return { body: await verifyMfa(signInDeps(await database()), input, requestOrigin(event)) };
});
