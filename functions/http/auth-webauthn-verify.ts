/** POST /api/auth/webauthn/authenticate/verify — the passkey assertion answering a passkey challenge; failures audited. */
import { requestOrigin } from '../../layers/core/auth/origin';
import { signInDeps, verifyPasskey } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { webauthnBodySchema } from '../../layers/core/http/contracts-auth';
import { httpRoute, parseWith } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ event, body }) => {
  const input = parseWith(webauthnBodySchema, body);
  return { body: await verifyPasskey(signInDeps(await database()), input, requestOrigin(event)) };
});
