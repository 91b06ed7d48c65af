/**
 * Resilience: one organization floods the AI quota, another's analyses still complete (issue 14, fair
 * AI capacity). Northwind (A) has used both regions' whole model quota in the last half minute and keeps
 * creating analyses up to its cap; Harbor (B) then asks for analyses. B's wait for its share shows on
 * the analysis (queued, `ai_wait_until`), its messages come back when its share frees (a full quota is
 * never "AI unavailable"), and its analyses complete; a quality check B asks for meanwhile waits (still
 * checking) and is verified; nothing either organization asked for fails.
 */
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#core/ai/quota';
import { AI_REGIONS } from '../../lib/twin/twin';
import { requestSummaries, retryingAfter503, SETTLED_STATUSES, type TwinTest } from '../support/twin';

export const tenantFlood = (e2e: TwinTest): void => {
  /** both organizations call as a client does: the documented 503 of a database busy under the flood is sent again */
  const call = retryingAfter503(e2e.call);
  const A = DEMO_ORGANIZATION_IDS.northwind;

  test("tenant A floods both regions; tenant B waits visibly for its share and its analyses complete, A's too", async () => {
    const db = e2e.twin.database.db;
    const [tokenA, tokenB] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);
    // an analysis B already has, checked again during the flood
    const earlier = await call('POST', '/api/analysis', tokenB, {
      investigation_id: DEMO_INVESTIGATION_IDS.harbor,
      analysis_type: 'summary',
    });
    const checked = earlier.body.analysis_id as string;
    for (let status = ''; status !== 'verified'; ) {
      status = (await call('GET', `/api/analysis/${checked}`, tokenB)).body.generation_status;
      await new Promise((r) => setTimeout(r, 200));
    }

    // A's last 28 s: the whole quota of both regions, the oldest grant leaving the window 25 s from now —
    // longer than a worker waits in process (the gateway's 10 s) even for the last of B's analyses to be claimed (a
    // claim can come seconds late when CI runs two suites at once: at 18 s one waited in process, unseen), so each of
    // B's first attempts goes back to the queue
    const now = Date.now();
    const stamps = Array.from({ length: QUOTA_LIMIT }, (_, i) => new Date(now - QUOTA_WINDOW_MS + 25_000 + i * 560));
    // (the window as A left it: the start-up embedding and B's first analysis no longer in it)
    await db.deleteFrom('ai_quota_reservations').execute();
    await db
      .insertInto('ai_quota_reservations')
      .values(
        Object.values(AI_REGIONS).flatMap((region) =>
          stamps.map((reserved_at) => ({ region, reserved_at, organization_id: A, granted: true })),
        ),
      )
      .execute();

    // A keeps asking for analyses as fast as it may: up to its cap, then 429s
    const statusesA: number[] = [];
    const createdA: string[] = [];
    let flooding = true;
    const flood = (async () => {
      while (flooding) {
        const res = await call('POST', '/api/analysis', tokenA, {
          investigation_id: DEMO_INVESTIGATION_IDS.northwind,
          analysis_type: 'summary',
        });
        statusesA.push(res.status);
        if (res.status === 202) createdA.push(res.body.analysis_id);
        // at its cap, A asks again once a second: enough to take each place that frees, and each call costs the
        // suite's two cores what the workers under test need
        await new Promise((r) => setTimeout(r, statusesA.includes(429) ? 1_000 : 150));
      }
    })();

    const started = Date.now();
    expect((await call('POST', `/api/analysis/${checked}/quality-check`, tokenB)).status).toBe(202);
    const createdB = await requestSummaries(call, tokenB, DEMO_INVESTIGATION_IDS.harbor, 3);

    // B waits visibly: queued with the time it is tried next, never failed meanwhile
    const seenWaiting = new Set<string>();
    const doneB = new Map<string, { status: string; seconds: number }>();
    let recheck: { body: Record<string, unknown> } = { body: { generation_status: 'checking' } };
    let recheckWaited = false;
    while (doneB.size < createdB.length || recheck.body.generation_status === 'checking') {
      expect(Date.now() - started).toBeLessThan(120_000);
      recheck = await call('GET', `/api/analysis/${checked}/quality-status`, tokenB);
      recheckWaited ||= recheck.body.generation_status === 'checking' && recheck.body.ai_wait_until !== null;
      for (const id of createdB.filter((x) => !doneB.has(x))) {
        const { body } = await call('GET', `/api/analysis/${id}`, tokenB);
        expect(body.generation_status).not.toBe('failed');
        if (body.generation_status === 'queued' && body.ai_wait_until) seenWaiting.add(id);
        if (SETTLED_STATUSES.includes(body.generation_status))
          doneB.set(id, { status: body.generation_status, seconds: (Date.now() - started) / 1000 });
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    flooding = false;
    await flood;

    const seconds = [...doneB.values()].map((d) => d.seconds);
    console.log(
      `tenant flood: B's ${createdB.length} analyses settled in ${Math.min(...seconds).toFixed(1)}–${Math.max(...seconds).toFixed(1)} s ` +
        `(${[...doneB.values()].map((d) => d.status).join(', ')}); A made ${statusesA.length} requests ` +
        `(${statusesA.filter((s) => s === 202).length} accepted, ${statusesA.filter((s) => s === 429).length} × 429)`,
    );
    expect(seenWaiting.size).toBe(createdB.length); // each went back to the queue, visibly, rather than failing
    expect(recheckWaited).toBe(true);
    expect(recheck.body).toMatchObject({ generation_status: 'verified', quality_state: 'verified', ai_wait_until: null });
    expect([...doneB.values()].map((d) => d.status).every((s) => ['complete', 'checking', 'verified'].includes(s))).toBe(true);
    expect(statusesA.every((s) => s === 202 || s === 429)).toBe(true);
    expect(statusesA).toContain(429); // A reached its cap of work in flight

    // A's own analyses wait their turn too; none of them fails as "AI unavailable"
    const failedA = await db
      .selectFrom('analyses')
      .select(['id', 'error_message'])
      .where('id', 'in', createdA)
      .where('generation_status', '=', 'failed')
      .execute();
    expect(failedA).toEqual([]);
  }, 150_000);
};
