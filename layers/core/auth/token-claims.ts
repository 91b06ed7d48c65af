/**
 * What our pre-token-generation trigger puts into the tokens Cognito issues. Cognito's access tokens
 * carry no user attributes, and the routes authorize on the access token (API Gateway's JWT authorizer
 * accepts it; handlers scope every read to its organization), so the organization — the immutable custom
 * attribute `custom:organization_id`, set by the operator's onboarding and never writable by the app
 * client — is copied into both tokens as the claim `organization_id`. (A `custom:` claim name is left to
 * Cognito's own ID-token rendering; the added claim needs none of Cognito's reserved prefixes.)
 * Trigger event version 2 (V2_0): the pool is on the Essentials or Plus plan.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

export const ORGANIZATION_ATTRIBUTE = 'custom:organization_id';
export const ORGANIZATION_CLAIM = 'organization_id';

/** The event with its response filled in: the organization on both tokens when the user has one, the email on the access token. */
export const withOrganizationClaim = (event: PreTokenGenerationV2TriggerEvent): PreTokenGenerationV2TriggerEvent => {
  const { [ORGANIZATION_ATTRIBUTE]: organization, email } = event.request.userAttributes;
  const organizationClaim: Record<string, string> = organization ? { [ORGANIZATION_CLAIM]: organization } : {};
  return {
    ...event,
    response: {
      claimsAndScopeOverrideDetails: {
        idTokenGeneration: { claimsToAddOrOverride: organizationClaim },
        accessTokenGeneration: { claimsToAddOrOverride: { ...organizationClaim, ...(email && { email }) } },
      },
    },
  };
};
