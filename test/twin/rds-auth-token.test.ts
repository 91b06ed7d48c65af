/**
 * The proxy stand-in's reading of RDS IAM auth tokens (lib/twin/iam/rds-auth-token.ts), against tokens
 * the SDK's own signer makes (what layers/core/aws/rds-auth-token.ts sends) and edits of them.
 */
import { Signer } from '@aws-sdk/rds-signer';
import { rdsAuthToken } from '#core/aws/rds-auth-token';
import { checkRdsAuthToken, type RdsAuthTokenExpectation } from '../../lib/twin/iam/rds-auth-token';
import { setEnv } from '../support/config-env';

const HOST = 'ias-dev-proxy.proxy-abc123.us-east-1.rds.amazonaws.com';
const USER = 'analysis_app';
const KEY = { accessKeyId: 'ASIAFUNCTIONROLEKEY1', secretAccessKey: 'secret', sessionToken: 'session' };

let token: string;
let signedAt: Date;

const expected = (overrides: Partial<RdsAuthTokenExpectation> = {}): RdsAuthTokenExpectation => ({
  host: HOST,
  port: 5432,
  user: USER,
  region: 'us-east-1',
  now: new Date(signedAt.getTime() + 1_000),
  ...overrides,
});

/** the token with one query parameter set (undefined: removed) */
const edited = (name: string, value: string | undefined) => {
  const [endpoint, query] = token.split('?') as [string, string];
  const params = new URLSearchParams(query);
  if (value === undefined) params.delete(name);
  else params.set(name, value);
  return `${endpoint}?${params.toString()}`;
};

beforeAll(async () => {
  token = await new Signer({ hostname: HOST, port: 5432, username: USER, region: 'us-east-1', credentials: KEY }).getAuthToken();
  const date = new URLSearchParams(token.split('?')[1]).get('X-Amz-Date')!;
  signedAt = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
});

test("the service's token (layers/core/aws/rds-auth-token.ts, the role's credentials from its environment) is the SDK signer's, byte for byte", async () => {
  setEnv({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: KEY.accessKeyId,
    AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey,
    AWS_SESSION_TOKEN: KEY.sessionToken,
  });
  jest.useFakeTimers({ now: new Date('2026-11-29T01:02:03Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    const target = { hostname: HOST, port: 5432, username: USER };
    const sdk = await new Signer({ ...target, region: 'us-east-1', credentials: KEY }).getAuthToken();
    expect(sdk).toContain('X-Amz-Date=20261129T010203Z');
    expect(await rdsAuthToken(target)()).toBe(sdk);
  } finally {
    jest.useRealTimers();
  }
});

test("a token from @aws-sdk/rds-signer for this endpoint and user is accepted, naming the signer's access key", () => {
  expect(token.startsWith(`${HOST}:5432/?`)).toBe(true);
  expect(checkRdsAuthToken(token, expected())).toEqual({ ok: true, accessKeyId: KEY.accessKeyId });
  // host names are case-insensitive
  expect(checkRdsAuthToken(token, expected({ host: HOST.toUpperCase() }))).toMatchObject({ ok: true });
});

test('valid for X-Amz-Expires (900 s) from X-Amz-Date, with 5 minutes of clock skew before it', () => {
  expect(checkRdsAuthToken(token, expected({ now: new Date(signedAt.getTime() + 899_999) }))).toMatchObject({ ok: true });
  expect(checkRdsAuthToken(token, expected({ now: new Date(signedAt.getTime() + 900_000) }))).toEqual({
    ok: false,
    reason: 'the token has expired',
  });
  expect(checkRdsAuthToken(token, expected({ now: new Date(signedAt.getTime() - 299_000) }))).toMatchObject({ ok: true });
  expect(checkRdsAuthToken(token, expected({ now: new Date(signedAt.getTime() - 301_000) }))).toEqual({
    ok: false,
    reason: 'the token is signed in the future',
  });
  expect(checkRdsAuthToken(edited('X-Amz-Expires', '901'), expected())).toEqual({
    ok: false,
    reason: 'X-Amz-Expires must be 1 to 900 seconds',
  });
  expect(checkRdsAuthToken(edited('X-Amz-Expires', '0'), expected())).toMatchObject({ ok: false });
});

test('another endpoint, port, user or region is refused', () => {
  expect(checkRdsAuthToken(token, expected({ host: 'other.proxy-abc123.us-east-1.rds.amazonaws.com' }))).toEqual({
    ok: false,
    reason: `the token is for ${HOST}:5432/, not other.proxy-abc123.us-east-1.rds.amazonaws.com:5432/`,
  });
  expect(checkRdsAuthToken(token, expected({ port: 5433 }))).toMatchObject({ ok: false });
  expect(checkRdsAuthToken(token, expected({ user: 'postgres' }))).toEqual({
    ok: false,
    reason: `the token is for user "${USER}", not "postgres"`,
  });
  expect(checkRdsAuthToken(token, expected({ region: 'us-west-2' }))).toEqual({
    ok: false,
    reason: 'the token is signed for region us-east-1, not us-west-2',
  });
});

test('what is not a connect token signed with SigV4 for rds-db is refused', () => {
  const refused = (candidate: string) => checkRdsAuthToken(candidate, expected());
  expect(refused('a-plain-password')).toMatchObject({ ok: false });
  expect(refused('')).toMatchObject({ ok: false });
  expect(refused(`https://${token}`)).toEqual({ ok: false, reason: 'the token carries a URL scheme' });
  expect(refused(edited('Action', 'DescribeDBInstances'))).toEqual({ ok: false, reason: 'the token is not for Action=connect' });
  expect(refused(edited('X-Amz-Algorithm', 'AWS4-HMAC-SHA1'))).toEqual({
    ok: false,
    reason: 'the token is not signed with AWS4-HMAC-SHA256',
  });
  const credential = new URLSearchParams(token.split('?')[1]).get('X-Amz-Credential')!;
  expect(refused(edited('X-Amz-Credential', credential.replace('/rds-db/', '/rds/')))).toEqual({
    ok: false,
    reason: 'the token is signed for rds, not rds-db',
  });
  expect(refused(edited('X-Amz-Credential', credential.replace(/\/\d{8}\//, '/19990101/')))).toEqual({
    ok: false,
    reason: "the credential scope's date is not X-Amz-Date's",
  });
  expect(refused(edited('X-Amz-Credential', 'nonsense'))).toEqual({ ok: false, reason: 'malformed X-Amz-Credential' });
  expect(refused(edited('X-Amz-Date', '20240230T000000Z'))).toEqual({ ok: false, reason: 'malformed X-Amz-Date' });
  expect(refused(edited('X-Amz-SignedHeaders', 'x-amz-date'))).toEqual({ ok: false, reason: 'the token does not sign the host header' });
  expect(refused(edited('X-Amz-Signature', 'not-hex'))).toEqual({ ok: false, reason: 'malformed X-Amz-Signature' });
  expect(refused(edited('X-Amz-Security-Token', undefined))).toEqual({
    ok: false,
    reason: 'temporary credentials without X-Amz-Security-Token',
  });
  expect(refused(`${token}&DBUser=postgres`)).toEqual({ ok: false, reason: 'the token repeats DBUser' });
});
