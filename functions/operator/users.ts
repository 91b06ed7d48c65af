/**
 * The `users` operator function (`npm run users`): onboarding inside the VPC, next to the database
 * (layers/core/admin/onboarding.ts). The CLI invokes it with the operator's own AWS credentials; a
 * refusal comes back as `{ ok: false, error }` (nothing changed), a fault as the function's error.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { OnboardingError, runOnboarding } from '../../layers/core/admin/onboarding';
import { cachedClient } from '../../layers/core/aws/client-cache';
import { ENV, requireEnv } from '../../layers/core/config';
import { database } from '../../layers/core/db/connection';

export const handler = async (event: unknown) => {
  try {
    const idp = cachedClient('cognito', () => new CognitoIdentityProviderClient({}));
    return { ok: true, result: await runOnboarding({ db: await database(), idp, userPoolId: requireEnv(ENV.userPoolId) }, event) };
  } catch (error) {
    if (error instanceof OnboardingError) return { ok: false, error: error.message };
    throw error;
  }
};
