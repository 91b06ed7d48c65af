/**
 * Who is calling, from the claims the API Gateway JWT authorizer put on the event (the twin's
 * authorizer puts them there the same way). Cognito group `admin` is the admin role; everyone else is
 * an investigator. The organization is the `organization_id` claim our pre-token-generation trigger
 * adds from the immutable custom attribute `custom:organization_id` (./token-claims.ts), which the app
 * client cannot write.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { Role } from '#core/db/schema';
import { ORGANIZATION_CLAIM } from './token-claims';
import { ADMIN_GROUP } from '#manifest/runtime-names';

export interface Caller {
  subject: string;
  email: string | undefined;
  role: Role;
  organizationId: string | undefined;
}

/** A caller that belongs to an organization: what investigator routes act for. */
export type OrgCaller = Caller & { organizationId: string };

const GROUPS_CLAIM = 'cognito:groups';
/**
 * API Gateway renders array claims as a bracketed, space-separated string ("[admin ops]");
 * a token verified in-process has a real array. Accept both.
 */
export const groupsOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value === '') return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
};

export const callerFromClaims = (claims: Record<string, unknown>): Caller | undefined => {
  if (typeof claims.sub !== 'string') return undefined;
  return {
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    role: groupsOf(claims[GROUPS_CLAIM]).includes(ADMIN_GROUP) ? 'admin' : 'investigator',
    organizationId: typeof claims[ORGANIZATION_CLAIM] === 'string' ? (claims[ORGANIZATION_CLAIM] as string) : undefined,
  };
};

export const callerFromEvent = (event: Partial<APIGatewayProxyEventV2WithJWTAuthorizer>): Caller | undefined => {
  const claims = event.requestContext?.authorizer?.jwt?.claims;
  return claims ? callerFromClaims(claims) : undefined;
};
