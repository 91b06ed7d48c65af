/**
 * The per-organization cap on concurrent AI work, at database level (PGlite, or real PostgreSQL
 * with TEST_DATABASE_URL): only queued, generating and checking analyses count, only the organization's own,
 * the 429 carries Retry-After, and inside a transaction concurrent creates cannot overshoot the cap.
 */
import type { Kysely } from 'kysely';
import type { Database, GenerationStatus } from '#core/db/schema';
import {
  assertGenerationCapacity,
  DEFAULT_GENERATION_CAP,
  GENERATION_CAP_RETRY_AFTER_SECONDS,
  generationCap,
  generationsInFlight,
} from '#core/ratelimit/generation-cap';
import { ENV } from '#manifest/runtime-names';
import { answerOf } from '../support/answer-of';
import { useTestDatabase } from '../support/db';
import { setEnv } from '../support/config-env';

const db = useTestDatabase();
let orgA = '';
let orgB = '';
let investigationA = '';
let investigationB = '';

beforeAll(async () => {
  const ids = async (rows: Promise<{ id: string }[]>) => (await rows).map((r) => r.id) as [string, string];
  [orgA, orgB] = await ids(
    db
      .insertInto('organizations')
      .values([{ name: 'A' }, { name: 'B' }])
      .returning('id')
      .execute(),
  );
  [investigationA, investigationB] = await ids(
    db
      .insertInto('investigations')
      .values([
        { organization_id: orgA, title: 'a' },
        { organization_id: orgB, title: 'b' },
      ])
      .returning('id')
      .execute(),
  );
});

const addAnalyses = (investigationId: string, status: GenerationStatus, n: number, into: Kysely<Database> = db) =>
  into
    .insertInto('analyses')
    .values(
      Array.from({ length: n }, () => ({
        investigation_id: investigationId,
        analysis_type: 'summary' as const,
        generation_status: status,
      })),
    )
    .execute();

const refusal = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (e: unknown) => answerOf(e),
  );

test('GENERATION_CAP: default 10, an integer of at least 1', () => {
  const saved = process.env[ENV.generationCap];
  try {
    setEnv({ [ENV.generationCap]: undefined });
    expect(generationCap()).toBe(DEFAULT_GENERATION_CAP);
    setEnv({ [ENV.generationCap]: '3' });
    expect(generationCap()).toBe(3);
    for (const bad of ['0', '-2', 'many', '2.5']) {
      setEnv({ [ENV.generationCap]: bad });
      expect(() => generationCap()).toThrow(ENV.generationCap);
    }
  } finally {
    setEnv({ [ENV.generationCap]: saved });
  }
});

test('only queued, generating and checking analyses of the organization count; at the cap the next one is a 429 with Retry-After', async () => {
  await addAnalyses(investigationA, 'queued', 1);
  await addAnalyses(investigationA, 'generating', 1);
  await addAnalyses(investigationA, 'checking', 1);
  for (const done of ['complete', 'failed', 'verified', 'quality_unavailable'] as const) await addAnalyses(investigationA, done, 1);
  // a check whose worker's lease ran out (it crashed) no longer counts
  await db
    .insertInto('analyses')
    .values({
      investigation_id: investigationA,
      analysis_type: 'summary',
      generation_status: 'checking',
      claimed_until: new Date(Date.now() - 1000),
    })
    .execute();
  await addAnalyses(investigationB, 'queued', 4);
  expect(await generationsInFlight(db, orgA)).toBe(3);
  expect(await generationsInFlight(db, orgB)).toBe(4);

  await expect(assertGenerationCapacity(db, orgA, 4)).resolves.toBeUndefined();
  const refused = await refusal(assertGenerationCapacity(db, orgB, 4));
  expect(refused).toMatchObject({
    status: 429,
    code: 'rate_limited',
    headers: { 'retry-after': String(GENERATION_CAP_RETRY_AFTER_SECONDS) },
  });
  expect(refused?.message).toMatch(/4 analyses being generated or checked \(the limit is 4\)/);

  await addAnalyses(investigationA, 'queued', 1);
  expect(await refusal(assertGenerationCapacity(db, orgA, 4))).toMatchObject({ status: 429 });
  // a generation finishing frees a slot
  await db
    .updateTable('analyses')
    .set({ generation_status: 'complete' })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('analyses')
        .select('id')
        .where('investigation_id', '=', investigationA)
        .where('generation_status', '=', 'generating')
        .limit(1),
    )
    .execute();
  await expect(assertGenerationCapacity(db, orgA, 4)).resolves.toBeUndefined();
});

test('inside the inserting transaction the cap is exact: of two concurrent creates at cap − 1, one passes', async () => {
  const cap = (await generationsInFlight(db, orgB)) + 1;
  const create = () =>
    db.transaction().execute(async (trx) => {
      await assertGenerationCapacity(trx, orgB, cap);
      await new Promise((r) => setTimeout(r, 150)); // both requests are between check and insert at once
      await addAnalyses(investigationB, 'queued', 1, trx);
    });
  const outcomes = await Promise.allSettled([create(), create()]);
  expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(await generationsInFlight(db, orgB)).toBe(cap);
});
