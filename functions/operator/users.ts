/**
 * The `users` operator function (`npm run users`): onboarding inside the VPC, next to the database
 * (layers/core/admin/onboarding.ts). The CLI invokes it with the operator's own AWS credentials; a
 * refusal comes back as `{ ok: false, error }` (nothing changed), a fault as the function's error.
 */
import { onboardingDeps, OnboardingError, runOnboarding } from '#core/admin/onboarding';
import { database } from '#core/db/connection';
import { withLambdaContext } from '#core/logger';

export const handler = withLambdaContext(async (event: unknown) => {
  try {
    return { ok: true, result: await runOnboarding(onboardingDeps(await database()), event) };
  } catch (error) {
    if (error instanceof OnboardingError) return { ok: false, error: error.message };
    throw error;
  }
});
