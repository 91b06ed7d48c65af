/**
 * Rotation-safe database access, in the twin rendered from the synthesized stage: the RDS Proxy requires IAM
 * authentication, each function signs each new connection with a fresh auth token of its own role (granted
 * rds-db:connect on the proxy user only), and only the proxy reads the database secret, for each connection
 * it opens to the database. A rotation of the credentials under a warm function leaves it working, without a
 * cold start; a function whose role lacks the grant is refused as RDS Proxy refuses it.
 * PGlite, or real PostgreSQL with TEST_DATABASE_URL (whose roles are its owner's: the proxy signs in to it
 * with the URL's user, so only the secret changes there).
 */
import { randomBytes } from 'node:crypto';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sql } from 'kysely';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { changing, useTwin, type TwinTest } from '../support/twin';

const DATABASE_USER = 'analysis_app';
const REFUSED = `The IAM authentication failed for the role ${DATABASE_USER}. Check the IAM token for this role and try again.`;

/** polls until `done` holds (the function's pool hears its connection end asynchronously) */
const until = async (done: () => boolean, what: string) => {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

const closedConnections = (e2e: TwinTest) => e2e.logged('health').filter((r) => r.message === 'database connection closed').length;

describe('a rotation of the database credentials under a warm function', () => {
  const e2e = useTwin({ schedules: false });

  test("the function's next new connection succeeds with no cold start: its token is its role's, the proxy signs in with the secret's current value", async () => {
    const health = () => e2e.call('GET', '/api/health');
    expect((await health()).status).toBe(200); // cold start, and the pool's first connection

    const secrets = new SecretsManagerClient(e2e.awsConfig());
    const secretArn = e2e.twin.plan.database.secretArn;
    const current = JSON.parse((await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString!) as {
      username: string;
      password: string;
    };
    expect(current.username).toBe(DATABASE_USER);
    const rotated = { ...current, password: `Rotated${randomBytes(16).toString('hex')}` };

    // the database gets the new password first (the rotation function's setSecret step)
    const embedded = e2e.twin.database.engine === 'pglite';
    if (embedded) await sql`alter role ${sql.id(DATABASE_USER)} password ${sql.lit(rotated.password)}`.execute(e2e.twin.database.db);
    // the warm function's open connection outlives it; the proxy ends it, so the next query needs a new one
    await e2e.twin.databaseProxy.dropConnections();
    await until(() => closedConnections(e2e) >= 1, 'the pool to drop its ended connection');
    if (embedded) {
      // between the steps the secret is stale: the proxy cannot sign in to the database (as in AWS, briefly)
      const midway = await health();
      expect(midway.status).toBe(503);
      expect(midway.body.checks.database).toMatchObject({
        status: 'failed',
        error: `password authentication failed for user "${DATABASE_USER}"`,
      });
    }
    // finishSecret: the new value becomes AWSCURRENT
    await secrets.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString: JSON.stringify(rotated) }));
    secrets.destroy();

    const after = await health();
    expect(after.status).toBe(200);
    expect(after.body.checks.database.status).toBe('ok');
    // one execution environment throughout: warm invocations, no new cold start
    expect(e2e.twin.invocations('health').map((i) => i.coldStart)).toEqual(embedded ? [true, false, false] : [true, false]);
    // every new connection signed in with IAM, allowed on the proxy user
    const connects = e2e.twin.awsCalls().filter((c) => c.functionId === 'health' && c.service === 'rds-db');
    expect(connects.length).toBeGreaterThanOrEqual(embedded ? 3 : 2);
    expect(
      connects.every(
        (c) =>
          c.allowed &&
          c.action === 'rds-db:connect' &&
          c.resource ===
            `arn:aws:rds-db:${e2e.twin.plan.region}:${e2e.twin.plan.account}:dbuser:${e2e.twin.plan.database.proxyResourceId}/${DATABASE_USER}`,
      ),
    ).toBe(true);
    // and no function reads the database secret any more
    expect(e2e.twin.awsCalls().filter((c) => c.resource === secretArn)).toEqual([]);
  });
});

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
