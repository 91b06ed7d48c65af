/**
 * The twin runs the deployment as synthesized: tokens are those a Cognito pool of this configuration
 * issues (with its pre-token-generation trigger), an analysis runs end to end on the synthesized grants,
 * functions see only their template environment and sit where the template places them. The twin's
 * refusals of a deployment with a mistake in it: deployment-changes.e2e.test.ts. PGlite, or real
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { decodeJwt } from 'jose';
import { ENV } from '#core/config';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { AI_REGIONS } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';

const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

export const theDeploymentAsSynthesized = (e2e: TwinTest): void => {
  test('an access token has the claims a Cognito access token of this pool has, plus what the trigger adds', async () => {
    const { userPool } = e2e.twin.plan;
    const claims = decodeJwt(await e2e.token('admin'));
    // Cognito's access token claims (user pool JWT reference), cognito:groups for a member of a group;
    // the pre-token-generation trigger adds the email, and organization_id for a user with one (an
    // operator has none); no other user attribute is there
    expect(Object.keys(claims).sort()).toEqual([
      'auth_time',
      'client_id',
      'cognito:groups',
      'email',
      'event_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'origin_jti',
      'scope',
      'sub',
      'token_use',
      'username',
    ]);
    expect(decodeJwt(await e2e.token('investigator'))).toHaveProperty('organization_id');
    expect(claims).toMatchObject({
      iss: userPool.issuer,
      client_id: userPool.clients[0]!.id,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      'cognito:groups': ['admin'],
    });
    expect(claims.exp! - claims.iat!).toBe(userPool.clients[0]!.accessTokenMinutes * 60);
    // an investigator is in no group: Cognito then writes no cognito:groups claim at all
    expect(decodeJwt(await e2e.token('investigator'))).not.toHaveProperty('cognito:groups');
  });

  test('the ID token carries the attributes the app client may read, the custom attribute included', async () => {
    const signIn = await e2e.call('POST', '/api/auth/login', undefined, {
      email: 'investigator@northwind.example',
      password: 'Demo-Password-1!',
    });
    expect(signIn.status).toBe(200);
    const id = decodeJwt(signIn.body.id_token);
    expect(Object.keys(id).sort()).toEqual([
      'aud',
      'auth_time',
      'cognito:username',
      'custom:organization_id',
      'email',
      'email_verified',
      'event_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'organization_id',
      'origin_jti',
      'sub',
      'token_use',
    ]);
    expect(id['custom:organization_id']).toBe(id.organization_id);
    expect(decodeJwt(signIn.body.access_token)).not.toHaveProperty('custom:organization_id');
  });

  test('every function runs with exactly its template environment: the routes work, and nothing else is set', async () => {
    const token = await e2e.token('investigator');
    expect((await e2e.call('GET', '/api/investigations', token)).status).toBe(200);
    // the twin's own wiring lives in no function's environment
    for (const fn of e2e.twin.plan.functions) {
      expect(
        Object.keys(fn.environment).filter(
          (name) => name.startsWith('AWS_ENDPOINT_URL') || name === 'DATABASE_URL' || name === 'CRON_SECRET',
        ),
      ).toEqual([]);
    }
  });

  test('an analysis runs end to end on the grants as synthesized, in the primary region, with no call refused', async () => {
    const token = await e2e.token('investigator');
    // a minute later, as it were: the start-up sweep's quota reservations gone, so the primary region serves
    await e2e.twin.database.db.deleteFrom('ai_quota_reservations').execute();
    const created = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    expect((await e2e.pollUntilGenerated(created.body.analysis_id, token)).generation_status).not.toBe('failed');
    for (let i = 0; i < 100 && !e2e.twin.invocations('quality-worker').some((x) => x.ok); i++) await new Promise((r) => setTimeout(r, 100));
    const calls = e2e.twin.awsCalls();
    expect(calls.filter((c) => !c.allowed)).toEqual([]);
    const primary = (fn: string, action: string) =>
      calls.filter((c) => c.functionId === fn && c.action === action && c.resource.includes(`:${AI_REGIONS.primary}:`));
    // the question's embedding (InvokeModel), the analysis and the checks (ConverseStream: InvokeModelWithResponseStream)
    expect(primary('generation-worker', 'bedrock:InvokeModel').length).toBeGreaterThanOrEqual(1);
    expect(primary('generation-worker', 'bedrock:InvokeModelWithResponseStream').length).toBeGreaterThanOrEqual(1);
    expect(primary('quality-worker', 'bedrock:InvokeModelWithResponseStream').length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test('a function outside the VPC never reaches the database proxy', () => {
    const outside = e2e.twin.plan.functions.filter((fn) => !fn.inVpc).map((fn) => fn.id);
    expect(outside).toEqual(expect.arrayContaining(['openapi', 'pre-token-generation']));
    expect(e2e.twin.plan.functions.filter((fn) => fn.environment[ENV.dbHost]).every((fn) => fn.inVpc)).toBe(true);
  });
};
