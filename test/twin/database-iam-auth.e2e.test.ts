/**
 * RDS Proxy's IAM authentication, in the twin rendered from the synthesized stage: a function whose role lacks
 * rds-db:connect on the proxy user is refused as RDS Proxy refuses it, and a function with the grant is not. Own
 * twin: the deployment is changed (one function's policy). A rotation of the credentials under a warm function:
 * test/twin/credential-rotation.e2e.ts. PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { changing, useTwin } from '../support/twin';
import { DATABASE_USER } from './credential-rotation.e2e';

const REFUSED = `The IAM authentication failed for the role ${DATABASE_USER}. Check the IAM token for this role and try again.`;

describe('a function whose role may not rds-db:connect', () => {
  // the health function's role without the statement that lets it connect to the proxy as its user
  const e2e = useTwin({
    schedules: false,
    transformPlan: changing('health', (fn) => ({ ...fn, policy: fn.policy.filter((s) => ![s.Action].flat().includes('rds-db:connect')) })),
  });

  test("is refused by the proxy with RDS Proxy's 28P01; a function with the grant is not", async () => {
    const res = await e2e.call('GET', '/api/health');
    expect(res.status).toBe(503);
    expect(res.body.checks.database).toMatchObject({ status: 'failed', error: REFUSED });
    expect(res.body.checks.storage.status).toBe('ok'); // its other grants are untouched
    expect(e2e.twin.awsCalls().filter((c) => c.functionId === 'health' && c.service === 'rds-db')).toContainEqual(
      expect.objectContaining({
        action: 'rds-db:connect',
        allowed: false,
        resource: `arn:aws:rds-db:${e2e.twin.plan.region}:${e2e.twin.plan.account}:dbuser:${e2e.twin.plan.database.proxyResourceId}/${DATABASE_USER}`,
      }),
    );

    const token = await e2e.token('investigator');
    expect((await e2e.call('GET', `/api/investigations/${DEMO_INVESTIGATION_IDS.northwind}`, token)).status).toBe(200);
  });
});
