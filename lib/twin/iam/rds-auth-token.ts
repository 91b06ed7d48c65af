/**
 * RDS IAM authentication tokens, as RDS Proxy reads them: a SigV4-presigned `GET` of
 * `<endpoint>:<port>/?Action=connect&DBUser=<user>` (what `@aws-sdk/rds-signer` and `aws rds
 * generate-db-auth-token` produce, without the scheme), valid at most 15 minutes. The token names the
 * access key that signed it, and so the role session whose policy must allow `rds-db:connect` on the
 * proxy user. Unlike a presigned S3 URL's (../sigv4.ts), the token's signature is not verified (docs/twin.md):
 * the access key identifies the caller; everything else a forged or stale token could get wrong is checked.
 */
import { parseAmzDate } from './sigv4';

export interface RdsAuthTokenExpectation {
  /** the endpoint the client connected to (the proxy's host name) and its port */
  host: string;
  port: number;
  /** the user of the client's startup message: the token must be for that user */
  user: string;
  /** the proxy's region: the credential scope must name it */
  region: string;
  now: Date;
}

export type RdsAuthTokenCheck = { ok: true; accessKeyId: string } | { ok: false; reason: string };

/** SigV4's own bounds: a presigned request lives at most 15 minutes here, and AWS allows 5 minutes of clock skew. */
const MAX_TOKEN_SECONDS = 900;
const CLOCK_SKEW_MS = 5 * 60_000;

/** Whether `token` is an RDS IAM auth token for this endpoint and user, unexpired; and who signed it. */
export const checkRdsAuthToken = (token: string, expected: RdsAuthTokenExpectation): RdsAuthTokenCheck => {
  const refuse = (reason: string): RdsAuthTokenCheck => ({ ok: false, reason });
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return refuse('the token carries a URL scheme');
  let url: URL;
  try {
    url = new URL(`https://${token}`);
  } catch {
    return refuse('not an RDS IAM auth token');
  }
  if (
    url.hostname !== expected.host.toLowerCase() ||
    url.port !== String(expected.port) ||
    url.pathname !== '/' ||
    url.username ||
    url.hash
  ) {
    return refuse(`the token is for ${url.host}${url.pathname}, not ${expected.host}:${expected.port}/`);
  }
  const query = url.searchParams;
  for (const name of new Set(query.keys())) {
    if (query.getAll(name).length > 1) return refuse(`the token repeats ${name}`);
  }
  const get = (name: string) => query.get(name) ?? '';
  if (get('Action') !== 'connect') return refuse('the token is not for Action=connect');
  if (get('DBUser') !== expected.user) return refuse(`the token is for user "${get('DBUser')}", not "${expected.user}"`);
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return refuse('the token is not signed with AWS4-HMAC-SHA256');

  const [accessKeyId = '', scopeDate, region, service, terminator, ...extra] = get('X-Amz-Credential').split('/');
  if (!/^[A-Z0-9]{16,128}$/.test(accessKeyId) || extra.length > 0 || terminator !== 'aws4_request')
    return refuse('malformed X-Amz-Credential');
  if (service !== 'rds-db') return refuse(`the token is signed for ${service ?? 'no service'}, not rds-db`);
  if (region !== expected.region) return refuse(`the token is signed for region ${region ?? 'none'}, not ${expected.region}`);
  const signedAt = parseAmzDate(get('X-Amz-Date'));
  if (!signedAt) return refuse('malformed X-Amz-Date');
  if (scopeDate !== get('X-Amz-Date').slice(0, 8)) return refuse("the credential scope's date is not X-Amz-Date's");
  const expires = get('X-Amz-Expires');
  if (!/^\d+$/.test(expires) || Number(expires) < 1 || Number(expires) > MAX_TOKEN_SECONDS) {
    return refuse(`X-Amz-Expires must be 1 to ${MAX_TOKEN_SECONDS} seconds`);
  }
  if (signedAt.getTime() > expected.now.getTime() + CLOCK_SKEW_MS) return refuse('the token is signed in the future');
  if (expected.now.getTime() >= signedAt.getTime() + Number(expires) * 1000) return refuse('the token has expired');
  if (!get('X-Amz-SignedHeaders').split(';').includes('host')) return refuse('the token does not sign the host header');
  if (!/^[0-9a-f]{64}$/.test(get('X-Amz-Signature'))) return refuse('malformed X-Amz-Signature');
  // temporary credentials (a role session's ASIA… key) are valid only with their session token
  if (accessKeyId.startsWith('ASIA') && !get('X-Amz-Security-Token')) return refuse('temporary credentials without X-Amz-Security-Token');
  return { ok: true, accessKeyId };
};
