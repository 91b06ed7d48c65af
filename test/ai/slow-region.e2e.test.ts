/**
 * A primary Bedrock region that answers after 90 seconds, through the twin (issue 14, item 2): before the
 * attempt timeout, one analysis took 362 s and never used the fallback region. The stage is synthesized with
 * a short attempt timeout (CDK context aiAttemptTimeoutMs → AI_ATTEMPT_TIMEOUT_MS on every Bedrock-calling
 * function), so the test measures the mechanism in seconds rather than the defaults' minutes.
 * PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { DEMO_INVESTIGATION_IDS } from '../../layers/core/seed/demo';
import { AI_REGIONS } from '../../lib/twin/twin';
import { useTwin } from '../support/twin';

const ATTEMPT_TIMEOUT_MS = 3_000;
const e2e = useTwin({ context: { aiAttemptTimeoutMs: String(ATTEMPT_TIMEOUT_MS) } });

test('a primary answering after 90 s: the analysis completes through the fallback region, well inside the worker timeout', async () => {
  const token = await e2e.token('investigator');
  const { twin } = e2e;
  expect(twin.plan.functions.find((fn) => fn.id === 'generation-worker')?.environment.AI_ATTEMPT_TIMEOUT_MS).toBe(String(ATTEMPT_TIMEOUT_MS));
  // the start-up sweep's quota reservations gone, so calls go to the primary region first
  await twin.database.db.deleteFrom('ai_quota_reservations').execute();
  twin.bedrock.setFaults(AI_REGIONS.primary, { latencyMs: 90_000 });
  try {
    const started = Date.now();
    const created = await e2e.call('POST', '/api/analysis', token, { investigation_id: DEMO_INVESTIGATION_IDS.northwind, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    const analysisId = created.body.analysis_id as string;
    const generated = await e2e.pollUntilGenerated(analysisId, token);
    const wallMs = Date.now() - started;
    expect(['complete', 'checking', 'verified']).toContain(generated.generation_status);
    expect(generated.error_message).toBeNull();
    // two calls (the query embedding, then the analysis), each losing one attempt timeout to the primary;
    // the rest is the fallback's answer, the queue and polling. The generation worker's limit is 300 s.
    console.info(`analysis with a 90 s-slow primary: complete after ${wallMs} ms (attempt timeout ${ATTEMPT_TIMEOUT_MS} ms)`);
    expect(wallMs).toBeGreaterThanOrEqual(2 * ATTEMPT_TIMEOUT_MS);
    expect(wallMs).toBeLessThan(2 * ATTEMPT_TIMEOUT_MS + 10_000);

    const calls = await twin.database.db.selectFrom('ai_calls').select(['purpose', 'region', 'outcome', 'latency_ms'])
      .where('analysis_id', '=', analysisId).where('purpose', 'in', ['embedding', 'analysis']).orderBy('id').execute();
    expect(calls.map((c) => `${c.purpose}:${c.region}:${c.outcome}`)).toEqual([
      `embedding:${AI_REGIONS.primary}:timed_out`, `embedding:${AI_REGIONS.fallback}:ok`,
      `analysis:${AI_REGIONS.primary}:timed_out`, `analysis:${AI_REGIONS.fallback}:ok`,
    ]);
    for (const c of calls.filter((x) => x.outcome === 'timed_out')) {
      expect(c.latency_ms).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 5);
      expect(c.latency_ms).toBeLessThan(ATTEMPT_TIMEOUT_MS + 1_000);
    }
    const logs = twin.logs('generation-worker').map((l) => l.text);
    expect(logs).toContainEqual(expect.stringContaining('[AI:Timeout]'));
    expect(logs).toContainEqual(expect.stringContaining('[AI:fallback]'));
    expect(twin.invocations('generation-worker').every((i) => !i.timedOut)).toBe(true);
  } finally {
    twin.bedrock.clearFaults();
  }
}, 90_000);
