/**
 * `npm run bench -- tokens`: input tokens billed per verified analysis for its two quality checks, with and without
 * prompt caching (issue 29, item 3). The checks run as the quality worker runs them (analysis/quality.ts, the real AI
 * gateway and ledger, PGlite) against the Bedrock stand-in, which counts tokens as a quarter of the characters and
 * caches a marked prefix as Bedrock does (its minimum per model, five minutes). Each analysis reviews the eight
 * passages a prompt holds at most (RETRIEVAL.maxIncluded), taken from the demo investigation's evidence, and cites
 * every one. "Without" sends the same prompts whole, as before the cached prefix existed. Billed = full-price input
 * + 1.25 × cache writes + 0.1 × cache reads (Anthropic's rates on Bedrock), in input-token equivalents.
 */
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { AiGateway } from '#core/ai/gateway';
import { promptCacheMinimumTokens } from '#core/ai/models';
import { RETRIEVAL } from '#core/analysis/retrieval';
import { runQualityCheck } from '#core/analysis/quality';
import { DEFAULT_AI_MODELS } from '#core/config';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { logger } from '#core/logger';
import { DEMO_SEED } from '#core/seed/demo';
import { startBedrockStandin } from '../../lib/twin/bedrock/standin';
import { evidenceSource } from '../support/fixtures';
import { standinClients } from '../support/standin-clients';
import { benchGateway, flagNumber } from './bench-support';
import { figure } from './summary';

const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const CACHE_WRITE_RATE = 1.25;
const CACHE_READ_RATE = 0.1;

/** The demo's first investigation's evidence texts, as the passages of a prompt. */
const demoPassages = (count: number): { title: string; content: string }[] => {
  const seed = DEMO_SEED as { organizations: { investigations: { evidence: { title: string; content: string }[] }[] }[] };
  return seed.organizations[0]!.investigations[0]!.evidence.filter((e) => e.content.trim() !== '').slice(0, count);
};

/** An investigation with the passages as chunks; `analysis()` adds a complete analysis citing each of them. */
const investigationWithPassages = async (db: Kysely<Database>) => {
  const org = (await db.insertInto('organizations').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow()).id;
  const investigation = (
    await db
      .insertInto('investigations')
      .values({ organization_id: org, title: 'Vendor kickbacks' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const question = (
    await db
      .insertInto('questions')
      .values({ investigation_id: investigation, text: 'Who approved the Apex invoices, and were they paid twice?' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const chunks: { id: string; evidence: string; text: string }[] = [];
  for (const [index, passage] of demoPassages(RETRIEVAL.maxIncluded).entries()) {
    const { evidenceItemId: evidence, embeddingSourceId: source } = await evidenceSource(db, investigation, passage.title);
    const chunk = (
      await db
        .insertInto('text_chunks')
        .values({
          investigation_id: investigation,
          embedding_source_id: source,
          source_type: 'content',
          evidence_item_id: evidence,
          chunk_index: index,
          text: passage.content,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    chunks.push({ id: chunk, evidence, text: passage.content });
  }
  const firstSentence = (text: string) => /^[^.!?]*[.!?]/.exec(text.trim())?.[0] ?? text.slice(0, 120);
  const analysis = async (): Promise<string> => {
    const result = {
      summary: `${firstSentence(chunks[0]!.text)} ${firstSentence(chunks[1]!.text)}`,
      findings: chunks.map((c) => ({ statement: firstSentence(c.text), citations: [c.id] })),
      confidence: 'probable',
      evidence_gaps: ['Who signed the second payment run is not in the evidence.'],
    };
    const id = (
      await db
        .insertInto('analyses')
        .values({
          investigation_id: investigation,
          analysis_type: 'question',
          question_id: question,
          generation_status: 'complete',
          result: JSON.stringify(result),
          retrieval_quality: JSON.stringify({ mean_included_similarity: 0.6 }),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('retrieval_records')
      .values(
        chunks.map((c, i) => ({
          analysis_id: id,
          rank: i + 1,
          chunk_id: c.id,
          source_type: 'content' as const,
          evidence_item_id: c.evidence,
          background_document_id: null,
          similarity: 0.6,
          included: true,
          exclusion_reason: null,
        })),
      )
      .execute();
    return id;
  };
  return { analysis };
};

/** The gateway as it was before the cached prefix: the same prompts, sent whole. */
const withoutPromptCache = (gateway: AiGateway): Pick<AiGateway, 'converse'> => ({
  converse: ({ cachedPrefix = '', prompt, ...request }) => gateway.converse({ ...request, prompt: cachedPrefix + prompt }),
});

export const tokensBench = async (flags: readonly string[]) => {
  const runs = flagNumber(flags, '--analyses') ?? 5;
  logger.setLogLevel('WARN'); // each check's "verified" line would bury the table
  const standin = await startBedrockStandin({ embedder: 'hashing' });
  const clients = standinClients(() => standin.url);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await openPglite('memory://')) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
    const { analysis } = await investigationWithPassages(db);
    console.log(
      `\nQuality checks' input tokens per verified analysis (${runs} analyses each; ${RETRIEVAL.maxIncluded} demo passages cited; stand-in tokens = characters / 4):`,
    );
    console.log(
      `  ${'quality model (cache minimum)'.padEnd(58)} ${'caching'.padEnd(8)} ${'input'.padStart(7)} ${'write'.padStart(7)} ${'read'.padStart(7)} ${'billed'.padStart(8)}`,
    );
    for (const model of [DEFAULT_AI_MODELS.quality, SONNET]) {
      const billed: Record<string, number> = {};
      let written = 0;
      for (const caching of [false, true]) {
        const gateway = benchGateway({ db, client: clients.client }, { models: { ...DEFAULT_AI_MODELS, quality: model } });
        const ids: string[] = [];
        for (let n = 0; n < runs; n++) {
          const id = await analysis();
          const outcome = await runQualityCheck({ db, gateway: caching ? gateway : withoutPromptCache(gateway) }, id);
          if (outcome !== 'verified') throw new Error(`the quality check of a bench analysis ended ${outcome}`);
          ids.push(id);
        }
        const sums = await db
          .selectFrom('ai_calls')
          .select((eb) => [
            eb.fn.sum<string>('input_tokens').as('input'),
            eb.fn.sum<string>('cache_write_tokens').as('write'),
            eb.fn.sum<string>('cache_read_tokens').as('read'),
          ])
          .where('analysis_id', 'in', ids)
          .executeTakeFirstOrThrow();
        const [input, write, read] = [sums.input, sums.write, sums.read].map((v) => Number(v) / runs) as [number, number, number];
        billed[String(caching)] = input + CACHE_WRITE_RATE * write + CACHE_READ_RATE * read;
        written += write;
        const minimum = promptCacheMinimumTokens(model);
        console.log(
          `  ${`${model} (${minimum ?? 'none'})`.padEnd(58)} ${(caching ? 'on' : 'off').padEnd(8)} ${input.toFixed(0).padStart(7)} ${write.toFixed(0).padStart(7)} ${read.toFixed(0).padStart(7)} ${billed[String(caching)]!.toFixed(0).padStart(8)}`,
        );
      }
      const saved = 1 - billed.true! / billed.false!;
      console.log(`  ${''.padEnd(58)} ${'saved'.padEnd(8)} ${`${Math.round(saved * 100) + 0} %`.padStart(40)}`);
      // a prefix under the model's minimum is not cached: the figure is then context, with nothing to meet
      figure('tokens', {
        name: `quality checks' input billed per verified analysis, ${model === SONNET ? 'Sonnet 4.5' : 'the default quality model'}`,
        value: Math.round(billed.true!),
        unit: '',
        ...(written > 0 && { goal: { atMost: Math.round(billed.false!) } }),
        engine: 'PGlite',
        note: `input-token equivalents, ${Math.round(billed.false!)} without caching${written > 0 ? '' : ` (the shared prefix is under the model's ${promptCacheMinimumTokens(model)}-token minimum: nothing cached)`}; ${runs} analyses of ${RETRIEVAL.maxIncluded} demo passages, stand-in Bedrock`,
      });
    }
  } finally {
    await db.destroy();
    clients.destroyAll();
    await standin.stop();
  }
};
