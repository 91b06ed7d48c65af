/**
 * The twin's token issuer holds a pre-token-generation trigger to Cognito's rules: its claims are added
 * to the tokens, a claim Cognito reserves is refused, a failing or slow trigger fails the sign-in with
 * Cognito's exceptions, and no trigger leaves the pool's own claims.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, importJWK, SignJWT } from 'jose';
import { verifyToken } from '#core/auth/jwt';
import type { PlanUserPool } from '../../lib/twin/assembly/plan';
import {
  createTokenIssuer,
  jwksDocument,
  loadOrCreateKeys,
  TriggerError,
  type KeyFile,
  type TriggerInvocation,
} from '../../lib/twin/identity/tokens';

const POOL: PlanUserPool = {
  id: 'us-east-1_Test',
  arn: 'arn:aws:cognito-idp:us-east-1:000000000000:userpool/us-east-1_Test',
  issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Test',
  mfa: 'OPTIONAL',
  groups: ['admin'],
  customAttributes: [{ name: 'custom:organization_id', mutable: false }],
  clients: [{ id: 'client1', name: 'spa', accessTokenMinutes: 60, idTokenMinutes: 30, explicitAuthFlows: [] }],
  preTokenGeneration: { functionId: 'trigger', version: 'V2_0' },
};
const WHO = { subject: 'sub-1', email: 'a@example.test', role: 'investigator' as const, organizationId: 'org-1' };

let dir: string;
let keys: KeyFile;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'twin-identity-'));
  keys = await loadOrCreateKeys(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const answering =
  (response: unknown): TriggerInvocation =>
  async (event) => ({ ok: true, value: { ...event, response } });
const issuer = (trigger?: TriggerInvocation) => createTokenIssuer({ keys, pool: POOL, region: 'us-east-1', ...(trigger && { trigger }) });

test("the trigger's claims are added; the event carries the user's attributes and groups", async () => {
  let seen: unknown;
  const tokens = await issuer(async (event) => {
    seen = event;
    return {
      ok: true,
      value: {
        ...event,
        response: { claimsAndScopeOverrideDetails: { accessTokenGeneration: { claimsToAddOrOverride: { tier: 'gold' } } } },
      },
    };
  }).issue(WHO);
  expect(decodeJwt(tokens.accessToken)).toMatchObject({ tier: 'gold', token_use: 'access' });
  expect(decodeJwt(tokens.idToken)).not.toHaveProperty('tier');
  expect(seen).toMatchObject({
    version: '2',
    triggerSource: 'TokenGeneration_Authentication',
    userPoolId: POOL.id,
    userName: WHO.subject,
    request: {
      userAttributes: { sub: WHO.subject, email: WHO.email, 'custom:organization_id': 'org-1' },
      groupConfiguration: { groupsToOverride: [] },
    },
  });
});

test('a claim Cognito reserves cannot be overridden or suppressed', async () => {
  for (const details of [
    { claimsToAddOrOverride: { sub: 'someone-else' } },
    { claimsToSuppress: ['token_use'] },
    { claimsToAddOrOverride: { 'cognito:groups': ['admin'] } },
  ]) {
    await expect(issuer(answering({ claimsAndScopeOverrideDetails: { accessTokenGeneration: details } })).issue(WHO)).rejects.toMatchObject(
      { type: 'InvalidLambdaResponseException' },
    );
  }
});

test('a failing trigger fails the sign-in; a timed-out one too, as Cognito reports each', async () => {
  const failing = issuer(async () => ({ ok: false, timedOut: false, error: { errorType: 'Error', errorMessage: 'no organization' } }));
  await expect(failing.issue(WHO)).rejects.toEqual(
    new TriggerError('UserLambdaValidationException', 'PreTokenGeneration failed with error no organization.'),
  );
  const slow = issuer(async () => ({ ok: false, timedOut: true, error: { errorType: 'Sandbox.Timedout', errorMessage: 'timed out' } }));
  await expect(slow.issue(WHO)).rejects.toMatchObject({ type: 'UnexpectedLambdaException' });
});

test("group overrides replace cognito:groups in both tokens; ID token validity is the client's", async () => {
  const tokens = await issuer(
    answering({ claimsAndScopeOverrideDetails: { groupOverrideDetails: { groupsToOverride: ['auditors'] } } }),
  ).issue(WHO);
  for (const token of [tokens.accessToken, tokens.idToken]) expect(decodeJwt(token)['cognito:groups']).toEqual(['auditors']);
  const id = decodeJwt(tokens.idToken);
  expect(id.exp! - id.iat!).toBe(30 * 60);
});

test("the twin's authorizer (the shared verifier over the twin's JWKS, the pool's client as audience): its own tokens pass; without exp, expired or for no client, refused", async () => {
  const jwks = createLocalJWKSet(jwksDocument(keys));
  const expected = { issuer: POOL.issuer, audience: POOL.clients.map((c) => c.id) };
  const tokens = await issuer().issue(WHO);
  await expect(verifyToken(tokens.accessToken, jwks, expected)).resolves.toMatchObject({ client_id: 'client1' });
  await expect(verifyToken(tokens.idToken, jwks, expected)).resolves.toMatchObject({ aud: 'client1' });
  await expect(verifyToken((await issuer().issue(WHO, { ttlSeconds: -60 })).accessToken, jwks, expected)).rejects.toThrow();
  const privateKey = await importJWK(keys.privateJwk, 'RS256');
  const { exp: _, ...noExp } = decodeJwt(tokens.accessToken);
  const forged = await new SignJWT(noExp).setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid! }).sign(privateKey);
  await expect(verifyToken(forged, jwks, expected)).rejects.toThrow(/exp/);
  await expect(verifyToken(tokens.accessToken, jwks, { issuer: POOL.issuer, audience: [] })).rejects.toThrow(/no audience/);
});
