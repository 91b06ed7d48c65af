/**
 * The embedding sweep's share of the model quota (ai/quota.ts BACKGROUND_PRIMARY_LIMIT): the sweep a first
 * twin start runs over the demo seed leaves part of the primary region's minute, so the demo's first analysis
 * is served by the primary region; a sweep that finds the quota full waits for it (within its budget) instead
 * of failing its sources. Real gateway, stand-in Bedrock, real database; simulated time.
 */
import { sql } from 'kysely';
import { createAiGateway } from '#core/ai/gateway';
import { BACKGROUND_PRIMARY_LIMIT, QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#core/ai/quota';
import { sweepEmbeddings } from '#core/embeddings/sweeper';
import { DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { seedDemo } from '#core/seed/load';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { SimulatedTime } from '../support/simulated-time';
import { useStandin } from '../support/standin-clients';

const db = useTestDatabase();
const { client } = useStandin();

const START = Date.UTC(2026, 0, 1, 9);

beforeEach(async () => {
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
  await sql`update embedding_sources set status = 'pending', attempts = 0, error_message = null`.execute(db);
});

/** The sweep as the embedding-sweeper function runs it (background embeddings), on simulated time; the gateway as deployed (10-s quota wait). */
const setup = () => {
  const time = new SimulatedTime(START);
  const gateway = createAiGateway({ db, client, config: gatewayConfig({ quotaMaxWaitMs: 10_000 }), now: time.now, sleep: time.sleep });
  const sweep = (timeBudgetMs = 240_000) =>
    sweepEmbeddings(db, {
      embed: async (text) => (await gateway.embed(text, { background: true })).embedding,
      now: time.now,
      sleep: time.sleep,
      timeBudgetMs,
    });
  return { time, gateway, sweep };
};

/** Grants per region in the first minute after START. */
const firstMinuteGrants = async (region: string) =>
  Number(
    (
      await db
        .selectFrom('ai_quota_reservations')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('region', '=', region)
        .where('granted', '=', true)
        .where('reserved_at', '<', new Date(START + QUOTA_WINDOW_MS))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the start-up sweep of the demo seed', () => {
  beforeAll(async () => {
    await seedDemo(db);
  });

  test('uses at most BACKGROUND_PRIMARY_LIMIT of the primary region in its first minute, and the demo analysis that follows is served by the primary', async () => {
    const { time, gateway, sweep } = setup();
    const swept = time.spawn(0, () => sweep());
    time.start();
    const report = await swept;
    expect(report).toMatchObject({ stopped_by: 'done', remaining: 0, failed: 0 });
    expect(report.chunks).toBeGreaterThan(BACKGROUND_PRIMARY_LIMIT); // the demo's sweep would otherwise take more of the primary
    expect(await firstMinuteGrants(PRIMARY)).toBeLessThanOrEqual(BACKGROUND_PRIMARY_LIMIT);
    expect(BACKGROUND_PRIMARY_LIMIT).toBeLessThan(QUOTA_LIMIT);

    // an investigator's analysis at once: the query embedding, the analysis and its two quality checks
    const context = { organizationId: DEMO_ORGANIZATION_IDS.northwind };
    const regions = [
      (await gateway.embed('who approved the invoice?', context)).region,
      ...(await Promise.all(
        (['analysis', 'quality', 'quality'] as const).map(
          async (purpose) => (await gateway.converse({ purpose, system: 's', prompt: 'p', ...context })).region,
        ),
      )),
    ];
    expect(regions).toEqual([PRIMARY, PRIMARY, PRIMARY, PRIMARY]);
  });

  test('a sweep that finds the quota full waits for room and embeds everything, without failing a source', async () => {
    // another organization has filled the fallback region's minute and all but the background share of the primary's
    await db
      .insertInto('ai_quota_reservations')
      .values([
        ...Array.from({ length: QUOTA_LIMIT }, () => ({
          region: FALLBACK,
          reserved_at: new Date(START),
          organization_id: null,
          granted: true,
        })),
        ...Array.from({ length: QUOTA_LIMIT - BACKGROUND_PRIMARY_LIMIT + 1 }, () => ({
          region: PRIMARY,
          reserved_at: new Date(START),
          organization_id: DEMO_ORGANIZATION_IDS.harbor,
          granted: true,
        })),
      ])
      .execute();
    const { time, sweep } = setup();
    const swept = time.spawn(0, () => sweep());
    time.start();
    const report = await swept;
    expect(report).toMatchObject({ stopped_by: 'done', remaining: 0, failed: 0 });
    expect(time.now().getTime()).toBeGreaterThanOrEqual(START + QUOTA_WINDOW_MS);
    // every source embedded at its first attempt: none failed for want of a slot
    const sources = await db.selectFrom('embedding_sources').select(['status', 'attempts']).distinct().execute();
    expect(sources).toEqual([{ status: 'embedded', attempts: 1 }]);
  });

  test('when room comes only after its time budget, the sweep gives the source back untouched', async () => {
    await db
      .insertInto('ai_quota_reservations')
      .values(
        [PRIMARY, FALLBACK]
          .map((region) => ({ region, reserved_at: new Date(START), organization_id: null, granted: true }))
          .flatMap((row) => Array.from({ length: QUOTA_LIMIT }, () => row)),
      )
      .execute();
    const { time, sweep } = setup();
    const swept = time.spawn(0, () => sweep(20_000));
    time.start();
    const report = await swept;
    expect(report).toMatchObject({ stopped_by: 'time_budget', embedded: 0, failed: 0 });
    const sources = await db.selectFrom('embedding_sources').select(['status', 'attempts']).distinct().execute();
    expect(sources).toEqual([{ status: 'pending', attempts: 0 }]);
  });
});
