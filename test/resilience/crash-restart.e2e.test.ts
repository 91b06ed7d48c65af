/**
 * `kill -9` of the whole twin mid-generation and mid-check, then a start again on the same folder (issue 14,
 * items 3 and 8). Before leases, a crashed worker's analysis sat in `generating` until the watchdog failed it
 * 20 minutes later, holding its organization's generation cap all that time. Now the messages wait in the
 * queue (SQS keeps them durably: the twin's queues persist in its folder), come back when the visibility the
 * worker set runs out, and take over the rows whose leases ran out with the dead worker (lease.ts), so both
 * analyses reach verified about a lease after the kill, with nothing lost. The stage is deployed with a 10 s
 * lease (context analysisLeaseSeconds; 60 s by default, which the same run takes about a minute with) so the
 * suite measures the mechanism in seconds. PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { AI_REGIONS } from '../../lib/twin/twin';
import { useTwinProcess, type TwinProcess } from '../support/twin-process';
import { until } from '../support/until';

// a cap of two, so the two analyses in flight fill it and a third shows when it is free again; a 10 s lease
const LEASE_SECONDS = 10;
const twins = useTwinProcess({ context: { generationCap: '2', analysisLeaseSeconds: String(LEASE_SECONDS) } });

/** Every Bedrock call answers this much later before the kill, so work is in flight long enough to be caught (under the 10-s embedding attempt timeout). */
const AI_LATENCY_MS = 6_000;
/**
 * From the kill to both analyses verified: the restart, a lease and the message's return, then generation and
 * checks, on a loaded machine; well inside the client's 5-minute polling window.
 */
const SETTLE_MS = 150_000;

const slowAi = async (twin: TwinProcess) => {
  for (const region of Object.values(AI_REGIONS)) {
    const res = await fetch(`${twin.bedrock}/_standin/faults/${region}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: AI_LATENCY_MS }),
    });
    expect(res.ok).toBe(true);
  }
};

const create = (twin: TwinProcess, token: string, analysisType: string) =>
  twin.call('POST', '/api/analysis', token, { investigation_id: DEMO_INVESTIGATION_IDS.northwind, analysis_type: analysisType });

const statusOf = async (twin: TwinProcess, token: string, analysisId: string): Promise<string> => {
  const res = await twin.call('GET', `/api/analysis/${analysisId}`, token);
  expect(res.status).toBe(200);
  return res.body.generation_status as string;
};

test('kill -9 with one analysis generating and one being checked: after a restart both reach verified, nothing lost, the cap frees', async () => {
  let twin = await twins.start();
  const token = await twin.token('investigator');
  await slowAi(twin);

  const checked = await create(twin, token, 'summary');
  expect(checked.status).toBe(202);
  const checkedId = checked.body.analysis_id as string;
  // generous: a share of the AI quota the start-up sweep used may make it wait up to a minute
  await until(
    'the first analysis to be checked',
    async () => ((await statusOf(twin, token, checkedId)) === 'checking' ? true : undefined),
    120_000,
  );
  const generated = await create(twin, token, 'gap');
  expect(generated.status).toBe(202);
  const generatedId = generated.body.analysis_id as string;
  // a judgment-free action recorded while the check runs: it must survive the crash
  const viewed = await twin.call('POST', `/api/analysis/${checkedId}/feedback`, token, { action: 'view', request_id: 'before-the-crash' });
  expect(viewed.status).toBe(201);
  await until(
    'the second analysis to be generating',
    async () => ((await statusOf(twin, token, generatedId)) === 'generating' ? true : undefined),
    30_000,
  );
  expect(await statusOf(twin, token, checkedId)).toBe('checking');
  expect((await create(twin, token, 'error_check')).status).toBe(429); // the cap is full

  await twin.kill();
  const killedAt = Date.now();
  twin = await twins.start();
  const restartedMs = Date.now() - killedAt;

  // the cap: free once the dead worker's leases have run out (then held again by the takeovers only while they work)
  const capFreeMs = await until(
    'the generation cap to accept an analysis',
    async () => {
      const res = await create(twin, token, 'error_check');
      if (res.status === 202) return Date.now() - killedAt;
      expect(res.status).toBe(429);
      return undefined;
    },
    SETTLE_MS - (Date.now() - killedAt),
  );
  const settled = new Map<string, { status: string; ms: number }>();
  await until(
    'both analyses to reach a resting state',
    async () => {
      for (const id of [checkedId, generatedId].filter((x) => !settled.has(x))) {
        const status = await statusOf(twin, token, id);
        if (!['queued', 'generating', 'complete', 'checking'].includes(status)) settled.set(id, { status, ms: Date.now() - killedAt });
      }
      return settled.size === 2 ? true : undefined;
    },
    SETTLE_MS - (Date.now() - killedAt),
  );

  const checkedAfter = (await twin.call('GET', `/api/analysis/${checkedId}`, token)).body;
  const generatedAfter = (await twin.call('GET', `/api/analysis/${generatedId}`, token)).body;
  console.info(
    [
      'kill -9 of the twin mid-generation and mid-check:',
      `  restarted in ${restartedMs} ms`,
      `  generation cap free again ${capFreeMs} ms after the kill`,
      `  analysis being checked:   ${settled.get(checkedId)!.status} ${settled.get(checkedId)!.ms} ms after the kill`,
      `  analysis being generated: ${settled.get(generatedId)!.status} ${settled.get(generatedId)!.ms} ms after the kill`,
    ].join('\n'),
  );
  expect(checkedAfter).toMatchObject({ generation_status: 'verified', error_message: null });
  expect(generatedAfter).toMatchObject({ generation_status: 'verified', error_message: null });
  expect(generatedAfter.result.findings.length).toBeGreaterThan(0);
  // nothing lost: the rows, the feedback given before the crash (recorded once)
  const history = (await twin.call('GET', `/api/analysis/${checkedId}/feedback`, token)).body.feedback as {
    action: string;
    feedback_id: string;
  }[];
  expect(history).toEqual([expect.objectContaining({ action: 'view', feedback_id: viewed.body.feedback.feedback_id })]);
  const listed = (await twin.call('GET', `/api/analysis?investigation_id=${DEMO_INVESTIGATION_IDS.northwind}`, token)).body;
  expect(JSON.stringify(listed)).toContain(checkedId);
  expect(JSON.stringify(listed)).toContain(generatedId);
}, 400_000);
