/**
 * A function ended at its configured timeout, as Lambda ends it: the quality worker deployed with a short
 * timeout, and the primary Bedrock region answering after 90 seconds. PGlite, or real PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_LEASE_MS } from '#core/analysis/lease';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { AI_REGIONS } from '../../lib/twin/twin';
import { changing, useTwin } from '../support/twin';

const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

describe('a primary region that answers after 90 seconds', () => {
  // the quality worker deployed with a 4-second timeout, so the test need not wait its real 120 s out
  const TIMEOUT_S = 4;
  const e2e = useTwin({
    visibilityTimeoutSeconds: 5,
    transformPlan: changing('quality-worker', (fn) => ({ ...fn, timeoutSeconds: TIMEOUT_S })),
  });

  test('the quality worker is ended at its configured timeout; its message and its lease outlive it', async () => {
    const token = await e2e.token('investigator');
    const created = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    const generated = await e2e.pollUntilGenerated(created.body.analysis_id, token);
    expect(['complete', 'checking', 'verified']).toContain(generated.generation_status);
    // wait for the automatic check to finish; then, a minute later as it were (the start-up sweep's quota
    // reservations gone, so calls go to the primary region), make the primary answer after 90 s and check again
    // (finished: the analysis out of `checking`, so the manual check below is a new one, not a 409 on a slow machine)
    for (let i = 0; i < 300; i++) {
      const status = (await e2e.call('GET', `/api/analysis/${created.body.analysis_id}`, token)).body.generation_status;
      if (e2e.twin.invocations('quality-worker').length > 0 && status !== 'checking') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await e2e.twin.database.db.deleteFrom('ai_quota_reservations').execute();
    e2e.twin.bedrock.setFaults(AI_REGIONS.primary, { latencyMs: 90_000 });
    try {
      const before = e2e.twin.invocations('quality-worker').length;
      await new Promise((r) => setTimeout(r, 500));
      const check = await e2e.call('POST', `/api/analysis/${created.body.analysis_id}/quality-check`, token);
      expect(check.status).toBe(202);
      const deadline = Date.now() + 30_000;
      while (
        e2e.twin
          .invocations('quality-worker')
          .slice(before)
          .filter((i) => i.timedOut).length < 1 &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 200));
      }
      const timedOut = e2e.twin
        .invocations('quality-worker')
        .slice(before)
        .filter((i) => i.timedOut);
      expect(timedOut.length).toBeGreaterThanOrEqual(1);
      for (const invocation of timedOut) {
        expect(invocation.durationMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
        expect(invocation.durationMs).toBeLessThan(TIMEOUT_S * 1000 + 1000);
        expect(invocation.errorType).toBe('Sandbox.Timedout');
      }
      expect(e2e.twin.logs('quality-worker').map((l) => l.text)).toContainEqual(
        expect.stringContaining(`Task timed out after ${TIMEOUT_S}.00 seconds`),
      );
      // deleted by no one: the message is in flight, held invisible for one lease by the worker (not the
      // queue's long default), and the row is still leased: when both run out, the returning message takes
      // the row over (test/analysis/lease.test.ts)
      const sqs = new SQSClient(e2e.awsConfig());
      const attributes = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: e2e.twin.aws.queues.quality.url,
          AttributeNames: ['ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      sqs.destroy();
      expect(Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible)).toBeGreaterThanOrEqual(1);
      const row = await e2e.twin.database.db
        .selectFrom('analyses')
        .select(['generation_status', 'claimed_until'])
        .where('id', '=', created.body.analysis_id)
        .executeTakeFirstOrThrow();
      expect(row.generation_status).toBe('checking');
      expect(new Date(row.claimed_until!).getTime()).toBeGreaterThan(Date.now());
      expect(new Date(row.claimed_until!).getTime()).toBeLessThanOrEqual(Date.now() + DEFAULT_LEASE_MS);
    } finally {
      e2e.twin.bedrock.clearFaults();
    }
  }, 60_000);
});
