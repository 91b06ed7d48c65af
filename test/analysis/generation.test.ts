/**
 * The generation core on the real database with a fake gateway: what happens when the analysis
 * completes but its quality checks cannot be queued. The message comes back (the worker threw), and the
 * redelivery queues the checks without generating again; an analysis already checked is left alone.
 */
import type { AiGateway } from '../../layers/core/ai/gateway';
import { generateAnalysis } from '../../layers/core/analysis/generation';
import { toVectorLiteral } from '../../layers/core/embeddings/sources';
import { EMBEDDING_DIMENSIONS } from '../../layers/core/db/migrations/0001-domain';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
const ids = { investigation: '', chunk: '' };
const unit = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0));

beforeAll(async () => {
  const org = (await db.insertInto('organizations').values({ name: 'Generation Org' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.investigation = (await db.insertInto('investigations').values({ organization_id: org, title: 'Ledger' }).returning('id').executeTakeFirstOrThrow()).id;
  const evidence = (await db.insertInto('evidence_items').values({ investigation_id: ids.investigation, title: 'Ledger page', content: 'x' })
    .returning('id').executeTakeFirstOrThrow()).id;
  const source = (await db.insertInto('embedding_sources').values({ investigation_id: ids.investigation, source_type: 'content', source_id: evidence })
    .returning('id').executeTakeFirstOrThrow()).id;
  ids.chunk = (await db.insertInto('text_chunks').values({
    investigation_id: ids.investigation, embedding_source_id: source, source_type: 'content', evidence_item_id: evidence, chunk_index: 0,
    text: 'The ledger shows two payments to the same supplier.', embedding: toVectorLiteral(unit),
  }).returning('id').executeTakeFirstOrThrow()).id;
});

const fakeGateway = () => {
  const calls = { converse: 0, embed: 0, prompts: [] as string[] };
  const usage = { inputTokens: 3, outputTokens: 5 };
  const base = { region: 'us-east-1', modelId: 'test-model', fellBack: false, attempts: 1, latencyMs: 1, usage };
  const gateway = {
    embed: async () => { calls.embed += 1; return { ...base, embedding: unit }; },
    converse: async (request: { prompt: string }) => {
      calls.converse += 1;
      calls.prompts.push(request.prompt);
      return { ...base, text: JSON.stringify({ summary: 'Two payments.', findings: [{ statement: 'Paid twice.', citations: [ids.chunk] }] }) };
    },
  } as unknown as AiGateway;
  return { gateway, calls };
};

const queuedAnalysis = async () => (await db.insertInto('analyses').values({ investigation_id: ids.investigation, analysis_type: 'summary' })
  .returning('id').executeTakeFirstOrThrow()).id;

test('checks that could not be queued are queued by the redelivered message, without generating again', async () => {
  const id = await queuedAnalysis();
  const { gateway, calls } = fakeGateway();
  const queued: string[] = [];
  const queueDown = async () => { throw new Error('SQS unavailable'); };

  await expect(generateAnalysis({ db, gateway, onComplete: queueDown }, id)).rejects.toThrow('SQS unavailable');
  const afterFirst = await db.selectFrom('analyses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  expect(afterFirst.generation_status).toBe('complete');
  expect(calls.converse).toBe(1);

  const outcome = await generateAnalysis({ db, gateway, onComplete: async (analysisId) => { queued.push(analysisId); } }, id);
  expect(outcome).toBe('duplicate');
  expect(queued).toEqual([id]);
  expect(calls.converse).toBe(1);
  const afterRedelivery = await db.selectFrom('analyses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  expect(afterRedelivery.generated_at).toEqual(afterFirst.generated_at);
});

test('a duplicate message for an analysis already checked (or checking, or failed) queues nothing', async () => {
  const { gateway } = fakeGateway();
  const queued: string[] = [];
  const onComplete = async (analysisId: string) => { queued.push(analysisId); };
  const checked = await queuedAnalysis();
  await generateAnalysis({ db, gateway }, checked);
  await db.updateTable('analyses').set({ quality_checked_at: new Date(), generation_status: 'verified' }).where('id', '=', checked).execute();
  const releasedAfterFailure = await queuedAnalysis();
  await generateAnalysis({ db, gateway }, releasedAfterFailure);
  await db.updateTable('analyses').set({ quality_error: 'quality check did not finish' }).where('id', '=', releasedAfterFailure).execute();
  const failed = await queuedAnalysis();
  await db.updateTable('analyses').set({ generation_status: 'failed', error_message: 'x' }).where('id', '=', failed).execute();

  for (const id of [checked, releasedAfterFailure, failed]) expect(await generateAnalysis({ db, gateway, onComplete }, id)).toBe('duplicate');
  expect(queued).toEqual([]);
});

test('a regeneration carries the investigator\'s reason (as shown in the dropdown) and direction into the prompt', async () => {
  const { gateway, calls } = fakeGateway();
  const original = await queuedAnalysis();
  await generateAnalysis({ db, gateway }, original);
  const regenerated = (await db.insertInto('analyses').values({
    investigation_id: ids.investigation, analysis_type: 'summary', regenerated_from: original,
    regeneration_reason: 'missing_evidence', regeneration_direction: 'Look at the March ledger pages.',
  }).returning('id').executeTakeFirstOrThrow()).id;
  expect(await generateAnalysis({ db, gateway }, regenerated)).toBe('complete');
  expect(calls.prompts[0]).not.toContain('asked for a new version');
  expect(calls.prompts[1]).toContain('Reason: Missing evidence. Direction: Look at the March ledger pages.');
});
