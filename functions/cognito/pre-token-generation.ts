/**
 * Cognito's pre-token-generation trigger (V2): puts the user's organization into the access and ID
 * tokens (layers/core/auth/token-claims.ts). No I/O: Cognito fails the sign-in past 5 seconds.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { withOrganizationClaim } from '#core/auth/token-claims';

export const handler = async (event: PreTokenGenerationV2TriggerEvent) => withOrganizationClaim(event);
