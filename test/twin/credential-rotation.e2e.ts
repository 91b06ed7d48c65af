/**
 * Rotation-safe database access, in the twin rendered from the synthesized stage: the RDS Proxy requires IAM
 * authentication, each function signs each new connection with a fresh auth token of its own role, and only the proxy
 * reads the database secret, for each connection it opens to the database. A rotation of the credentials under a warm
 * function leaves it working, without a cold start. The suite leaves the rotated credentials in place, as a rotation
 * does, so it runs on a shared twin (test/e2e/demo-twin-without-schedules.e2e.test.ts).
 * PGlite, or real PostgreSQL with TEST_DATABASE_URL (whose roles are its owner's: the proxy signs in to it
 * with the URL's user, so only the secret changes there).
 */
import { randomBytes } from 'node:crypto';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sql } from 'kysely';
import type { TwinTest } from '../support/twin';
import { until } from '../support/until';

/** the database user the functions sign in as (the proxy's IAM user, the instance's master user) */
export const DATABASE_USER = 'analysis_app';

export const rotatingDatabaseCredentials = (e2e: TwinTest): void => {
  const closedConnections = () => e2e.logged('health').filter((r) => r.message === 'database connection closed').length;

  test("the function's next new connection succeeds with no cold start: its token is its role's, the proxy signs in with the secret's current value", async () => {
    const health = () => e2e.call('GET', '/api/health');
    const since = new Date();
    expect((await health()).status).toBe(200); // an environment (cold, unless an earlier suite started it) and its pool's connection

    const closedBefore = closedConnections();
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
    // the function's pool hears its connection end asynchronously
    await until('the pool to drop its ended connection', async () => (closedConnections() > closedBefore ? true : undefined), 10_000, 20);
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
    const invocations = e2e.twin.invocations('health').filter((i) => i.startedAt >= since);
    expect(invocations.slice(1).map((i) => i.coldStart)).toEqual(embedded ? [false, false] : [false]);
    // every new connection signed in with IAM, allowed on the proxy user
    const connects = e2e.twin.awsCalls().filter((c) => c.at >= since && c.functionId === 'health' && c.service === 'rds-db');
    expect(connects.length).toBeGreaterThanOrEqual(embedded ? 2 : 1); // the connections opened since the credentials changed, at least
    expect(
      connects.every(
        (c) =>
          c.allowed &&
          c.action === 'rds-db:connect' &&
          c.resource ===
            `arn:aws:rds-db:${e2e.twin.plan.region}:${e2e.twin.plan.account}:dbuser:${e2e.twin.plan.database.proxyResourceId}/${DATABASE_USER}`,
      ),
    ).toBe(true);
    // and no function reads the database secret (nor did any before, whatever the suites before this one ran)
    expect(e2e.twin.awsCalls().filter((c) => c.resource === secretArn)).toEqual([]);
  });
};
