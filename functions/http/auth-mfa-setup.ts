/** POST /api/auth/mfa/setup — the first code of the authenticator enrolled at the mfa_setup challenge; tokens or the next step. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { setUpMfa, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { mfaSetupBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const input = parseWith(mfaSetupBodySchema, body);
  return { body: await setUpMfa(signInDeps(await database()), input, requestOrigin(event)) };
});
