/** POST /api/auth/webauthn/authenticate/verify — the passkey assertion answering a passkey challenge; failures audited. */
import { authWebauthnVerifyRoute } from '#core/auth/contract';
import { requestOrigin } from '#core/auth/origin';
import { auditRefusedSignIn, WEBAUTHN_VERIFY, verifyPasskey, signInDeps } from '#core/auth/sign-in';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  authWebauthnVerifyRoute,
  async ({ event, body }) => ({
    body: await verifyPasskey(signInDeps(await database()), body, requestOrigin(event)),
  }),
  { refused: auditRefusedSignIn({ action: WEBAUTHN_VERIFY, stage: 'passkey_verify' }) },
);
