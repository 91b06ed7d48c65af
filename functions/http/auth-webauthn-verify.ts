/** POST /api/auth/webauthn/authenticate/verify — the passkey assertion answering a passkey challenge; failures audited. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { parseSignInBody, signInDeps, verifyPasskey, WEBAUTHN_VERIFY } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { webauthnBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const deps = signInDeps(await database());
  const origin = requestOrigin(event);
  const input = await parseSignInBody(deps.db, webauthnBodySchema, body, origin, { action: WEBAUTHN_VERIFY, stage: 'passkey_verify' });
  return { body: await verifyPasskey(deps, input, origin) };
}, { auditsEveryAttempt: true });
