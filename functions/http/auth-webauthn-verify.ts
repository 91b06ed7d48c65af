/** POST /api/auth/webauthn/authenticate/verify — the passkey assertion answering a passkey challenge; failures audited. */
import { authWebauthnVerifyRoute } from '../../layers/core/auth/contract';
import { requestOrigin } from '../../layers/core/auth/origin';
import { auditRefusedSignIn, WEBAUTHN_VERIFY, verifyPasskey, signInDeps } from '../../layers/core/auth/sign-in';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(authWebauthnVerifyRoute, async ({ event, body }) => ({
  body: await verifyPasskey(signInDeps(await database()), body, requestOrigin(event)),
}), { refused: auditRefusedSignIn({ action: WEBAUTHN_VERIFY, stage: 'passkey_verify' }) });
