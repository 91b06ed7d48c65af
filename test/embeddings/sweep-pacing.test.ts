/**
 * The embedding work's share of the model quota (ai/quota.ts BACKGROUND_PRIMARY_LIMIT): a run over a backlog large
 * enough to need more requests than that in a minute — the demo seed and an investigation of 3,600 chunks — leaves
 * part of the primary region's minute, so an investigator's analysis right after it is served by the primary region;
 * a run that finds the quota full waits for it (within its budget) instead of failing anything. Real gateway,
 * stand-in Bedrock, real database; simulated time.
 */
import { sql } from 'kysely';
import { createAiGateway } from '#core/ai/gateway';
import { BACKGROUND_PRIMARY_LIMIT, QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#core/ai/quota';
import { gatewayEmbedder } from '#core/embeddings/embedding-work';
import { sweepEmbeddings } from '#core/embeddings/sweeper';
import { DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { seedDemo } from '#core/seed/load';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { addWaitingChunks } from '../support/fixtures';
import { SimulatedTime } from '../support/simulated-time';
import { useStandin } from '../support/standin-clients';

const db = useTestDatabase();
const { client } = useStandin();

const START = Date.UTC(2026, 0, 1, 9);
/** more than BACKGROUND_PRIMARY_LIMIT requests' worth: 38 requests of 96 */
const BACKLOG_CHUNKS = 3_600;

beforeAll(async () => {
  // the quota, not the index, is under test: without the HNSW index PGlite stores 3,600 vectors in seconds, not minutes
  await sql`drop index text_chunks_embedding_idx`.execute(db);
  await seedDemo(db);
  const investigation = await db
    .insertInto('investigations')
    .values({ organization_id: DEMO_ORGANIZATION_IDS.harbor, title: 'Harbor ledgers' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addWaitingChunks(db, investigation.id, BACKLOG_CHUNKS);
}, 60_000);

beforeEach(async () => {
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
  await sql`update text_chunks set embedding = null, embedding_model = null, embedded_at = null, embed_lease_until = null`.execute(db);
  await sql`update embedding_sources set status = 'pending', attempts = 0, error_message = null`.execute(db);
});

/** The run as the embedding-sweeper function makes it (background embeddings), on simulated time; the gateway as deployed (10-s quota wait). */
const setup = () => {
  const time = new SimulatedTime(START);
  const gateway = createAiGateway({ db, client, config: gatewayConfig({ quotaMaxWaitMs: 10_000 }), now: time.now, sleep: time.sleep });
  const sweep = (timeBudgetMs = 240_000) =>
    sweepEmbeddings(db, { embedder: gatewayEmbedder(gateway), now: time.now, sleep: time.sleep, timeBudgetMs });
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

const sourceStates = () => db.selectFrom('embedding_sources').select(['status', 'attempts']).distinct().execute();

describe('a run over a backlog larger than the background share of a minute', () => {
  test('uses at most BACKGROUND_PRIMARY_LIMIT of the primary region in its first minute, and an analysis right after is served by the primary', async () => {
    const { time, gateway, sweep } = setup();
    const swept = time.spawn(0, () => sweep());
    time.start();
    const report = await swept;
    expect(report).toMatchObject({ stopped_by: 'done', remaining: 0, failed: 0 });
    const requests = Number((await sql<{ n: number }>`select count(*)::int as n from ai_calls`.execute(db)).rows[0]!.n);
    expect(requests).toBeGreaterThan(BACKGROUND_PRIMARY_LIMIT); // the run would otherwise take more of the primary
    expect(await firstMinuteGrants(PRIMARY)).toBeLessThanOrEqual(BACKGROUND_PRIMARY_LIMIT);
    expect(BACKGROUND_PRIMARY_LIMIT).toBeLessThan(QUOTA_LIMIT);

    // an investigator's analysis at once: the query embedding, the analysis and its two quality checks
    const context = { organizationId: DEMO_ORGANIZATION_IDS.northwind };
    const regions = [
      (await gateway.embedTexts(['who approved the invoice?'], { inputType: 'search_query', ...context })).requests[0]!.region,
      ...(await Promise.all(
        (['analysis', 'quality', 'quality'] as const).map(
          async (purpose) => (await gateway.converse({ purpose, system: 's', prompt: 'p', ...context })).region,
        ),
      )),
    ];
    expect(regions).toEqual([PRIMARY, PRIMARY, PRIMARY, PRIMARY]);
  }, 120_000);

  test('a run that finds the quota full waits for room and embeds everything, without failing a source', async () => {
    // another organization has filled the fallback region's minute and all but a little of the primary's background share
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
          organization_id: DEMO_ORGANIZATION_IDS.northwind,
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
    // every source embedded, none failed for want of a slot
    expect(await sourceStates()).toEqual([{ status: 'embedded', attempts: 0 }]);
  }, 120_000);

  test('when room comes only after its time budget, the run gives its claim back untouched', async () => {
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
    expect(report).toMatchObject({ stopped_by: 'time_budget', embedded: 0, chunks: 0, failed: 0 });
    expect(await sourceStates()).toEqual(expect.arrayContaining([{ status: 'pending', attempts: 0 }]));
    expect(await sourceStates()).not.toContainEqual(expect.objectContaining({ status: 'error' }));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from text_chunks where embed_lease_until is not null`.execute(db);
    expect(rows[0]!.n).toBe(0);
  }, 60_000);
});
