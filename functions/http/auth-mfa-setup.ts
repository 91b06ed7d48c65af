/** POST /api/auth/mfa/setup — the first code of the authenticator enrolled at the mfa_setup challenge; tokens or the next step. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { LOGIN_FAILED, parseSignInBody, setUpMfa, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { mfaSetupBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const deps = signInDeps(await database());
  const origin = requestOrigin(event);
  const input = await parseSignInBody(deps.db, mfaSetupBodySchema, body, origin, { action: LOGIN_FAILED, stage: 'mfa_setup' });
  return { body: await setUpMfa(deps, input, origin) };
}, { auditsEveryAttempt: true });
