/** POST /api/auth/mfa/verify — the code answering a totp or sms challenge of /api/auth/login. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { LOGIN_FAILED, parseSignInBody, signInDeps, verifyMfa } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { mfaBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const deps = signInDeps(await database());
  const origin = requestOrigin(event);
  const input = await parseSignInBody(deps.db, mfaBodySchema, body, origin, { action: LOGIN_FAILED, stage: 'mfa' });
  return { body: await verifyMfa(deps, input, origin) };
}, { auditsEveryAttempt: true });
