/**
 * `npm run bench -- relevance`: how well the service's retrieval finds the demo evidence that answers each seeded
 * question and topic (layers/core/seed/demo-judgments.json), with the Bedrock stand-in embedding by feature hashing
 * (the twin's default) and by meaning (a sentence-embedding model, the candidate), side by side. The demo is seeded
 * into an embedded PGlite, embedded by the embedding work through the AI gateway, and searched as an analysis
 * searches: the query an analysis embeds, nearestChunks, decideInclusion with this stage's floor.
 *
 * Per question/topic: recall@8 — the share of the items that `answer` it (at most 8) among the items of the top 8
 * chunks; nDCG@8 — graded (answers 2, bears_on 1; an item counts at its first chunk); the similarity of the best
 * chunk of a relevant item (answers or bears_on) and of the best irrelevant chunk. Then the similarity ranges of
 * relevant and irrelevant chunks over every chunk of the investigation, and the bands they fall in.
 */
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS } from '#core/ai/timeouts';
import { decideInclusion, inclusionRules, nearestChunks, searchChunks, RETRIEVAL } from '#core/analysis/retrieval';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { similarityBand, type SimilarityBandKey } from '#core/domain/similarity';
import { embedWaitingChunks, gatewayEmbedder } from '#core/embeddings/embedding-work';
import { seedDemo } from '#core/seed/load';
import demo from '../../layers/core/seed/demo.json';
import judgmentsFile from '../../layers/core/seed/demo-judgments.json';
import { startBedrockStandin } from '../../lib/twin/bedrock/standin';
import type { StandinEmbedderName } from '../../lib/twin/bedrock/embedder';
import { benchGateway } from './bench-support';
import { standinClients } from '../support/standin-clients';
import { figure } from './summary';

const K = 8;
const EMBEDDERS: readonly StandinEmbedderName[] = ['hashing', 'meaning'];

interface Judgment {
  question?: string;
  topic?: string;
  answers: string[];
  bears_on: string[];
}

interface Scored {
  name: string;
  recall: number;
  ndcg: number;
  /** best similarity of a chunk of a relevant item, and of an irrelevant chunk */
  bestRelevant: number;
  bestIrrelevant: number;
  /** chunks the analysis would include (the floor and the context limit) */
  included: number;
}

interface Run {
  scored: Scored[];
  relevant: number[];
  irrelevant: number[];
  embedSeconds: number;
}

const dcg = (gains: readonly number[]) => gains.reduce((sum, gain, i) => sum + (2 ** gain - 1) / Math.log2(i + 2), 0);

/** The gain of each distinct item among `titles` (chunks nearest first), an item counted at its first chunk only. */
const itemGains = (titles: readonly string[], grade: (title: string) => number) => {
  const seen = new Set<string>();
  return titles.map((title) => {
    if (seen.has(title)) return 0;
    seen.add(title);
    return grade(title);
  });
};

const measure = async (embedder: StandinEmbedderName): Promise<Run> => {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await openPglite('memory://')) });
  const standin = await startBedrockStandin({ embedder });
  const { client, destroyAll } = standinClients(() => standin.url);
  try {
    await migrateToLatest(db as Kysely<unknown>);
    await seedDemo(db);
    // relevance, not latency: the model's first batch of long chunks can take longer than 10 s on a loaded machine
    const gateway = benchGateway({ db, client }, { attemptTimeoutMs: { ...ATTEMPT_TIMEOUT_DEFAULTS_MS, embedding: 60_000 } });
    const started = performance.now();
    for (;;) {
      const outcome = await embedWaitingChunks(db, { embedder: gatewayEmbedder(gateway), timeBudgetMs: 600_000 });
      if (outcome.next_at === null) break;
    }
    const embedSeconds = (performance.now() - started) / 1000;
    // PGlite's index build blocks this process for seconds, long enough for the stand-in to close the idle sockets
    // the clients would reuse: the queries go on new ones
    destroyAll();

    const titles = new Map<string, string>();
    for (const row of await db.selectFrom('evidence_items').select(['id', 'title']).execute()) titles.set(row.id, row.title);
    for (const row of await db.selectFrom('background_documents').select(['id', 'title']).execute()) titles.set(row.id, row.title);
    const titleOf = (c: { evidence_item_id: string | null; background_document_id: string | null }) =>
      titles.get(c.evidence_item_id ?? c.background_document_id ?? '') ?? '';

    const run: Run = { scored: [], relevant: [], irrelevant: [], embedSeconds };
    for (const investigation of judgmentsFile.investigations) {
      const known = new Set(
        (await db.selectFrom('evidence_items').select('title').where('investigation_id', '=', investigation.id).execute())
          .map((r) => r.title)
          .concat(
            (await db.selectFrom('background_documents').select('title').where('investigation_id', '=', investigation.id).execute()).map(
              (r) => r.title,
            ),
          ),
      );
      const seeded = demo.organizations.flatMap((o) => o.investigations).find((i) => i.id === investigation.id)!;
      for (const judgment of investigation.judgments as Judgment[]) {
        for (const title of [...judgment.answers, ...judgment.bears_on])
          if (!known.has(title)) throw new Error(`demo-judgments.json: no item "${title}" in ${investigation.title}`);
        const grade = (title: string) => (judgment.answers.includes(title) ? 2 : judgment.bears_on.includes(title) ? 1 : 0);
        // the query an analysis embeds (layers/core/analysis/generation.ts): a question's text, or a topic's title and description
        const query = judgment.question
          ? seeded.questions.find((q) => q.key === judgment.question)!.text
          : ((t) => `${t.title}. ${t.description}`)(seeded.topics.find((t) => t.title === judgment.topic)!);
        const { embeddings, model } = await gateway.embedTexts([query], { inputType: 'search_query' });
        const vector = embeddings[0]!;
        const { ranked } = decideInclusion(await nearestChunks(db, investigation.id, vector, { model }), inclusionRules());
        const gains = itemGains(ranked.slice(0, K).map(titleOf), grade);
        const answered = new Set(
          ranked
            .slice(0, K)
            .map(titleOf)
            .filter((t) => judgment.answers.includes(t)),
        ).size;
        const ideal = [...judgment.answers.map(() => 2), ...judgment.bears_on.map(() => 1)].slice(0, K);

        // every chunk of the investigation, for the similarity ranges
        const all = (await searchChunks(db, investigation.id, vector, { model, exact: true, limit: 10_000 })).candidates;
        const relevantSims = all.filter((c) => grade(titleOf(c)) > 0).map((c) => c.similarity);
        const irrelevantSims = all.filter((c) => grade(titleOf(c)) === 0).map((c) => c.similarity);
        run.relevant.push(...relevantSims);
        run.irrelevant.push(...irrelevantSims);
        run.scored.push({
          name: judgment.question ?? `topic: ${judgment.topic}`,
          recall: answered / Math.min(K, judgment.answers.length),
          ndcg: dcg(gains) / dcg(ideal),
          bestRelevant: Math.max(...relevantSims),
          bestIrrelevant: Math.max(...irrelevantSims),
          included: ranked.filter((r) => r.included).length,
        });
      }
    }
    return run;
  } finally {
    destroyAll();
    await standin.stop();
    await db.destroy();
  }
};

const pct = (v: number) => `${Math.round(v * 100)} %`;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const bandCounts = (sims: readonly number[]) => {
  const counts: Record<SimilarityBandKey, number> = { high: 0, relevant: 0, somewhat: 0, low: 0 };
  for (const s of sims) counts[similarityBand(s).key]++;
  return `high ${counts.high}, relevant ${counts.relevant}, somewhat ${counts.somewhat}, low ${counts.low}`;
};

export const relevanceBench = async () => {
  const runs = new Map<StandinEmbedderName, Run>();
  for (const embedder of EMBEDDERS) runs.set(embedder, await measure(embedder));
  const [old, now] = EMBEDDERS.map((e) => runs.get(e)!) as [Run, Run];
  console.log(
    `\nRelevance of the service's retrieval on the demo (judgments: layers/core/seed/demo-judgments.json; top ${K} of ${RETRIEVAL.candidates} candidates, floor ${inclusionRules().minSimilarity}):`,
  );
  console.log(
    `  ${'question / topic'.padEnd(46)} ${'recall@8'.padStart(17)} ${'nDCG@8'.padStart(17)}   best relevant / best irrelevant similarity, included`,
  );
  console.log(`  ${''.padEnd(46)} ${'hashing  meaning'.padStart(17)} ${'hashing  meaning'.padStart(17)}`);
  old.scored.forEach((o, i) => {
    const n = now.scored[i]!;
    console.log(
      `  ${o.name.slice(0, 46).padEnd(46)} ${o.recall.toFixed(2).padStart(8)} ${n.recall.toFixed(2).padStart(8)} ${o.ndcg.toFixed(2).padStart(8)} ${n.ndcg.toFixed(2).padStart(8)}   ` +
        `hashing ${pct(o.bestRelevant)} / ${pct(o.bestIrrelevant)}, ${o.included}; meaning ${pct(n.bestRelevant)} / ${pct(n.bestIrrelevant)}, ${n.included}`,
    );
  });
  const means = (run: Run) => ({ recall: mean(run.scored.map((s) => s.recall)), ndcg: mean(run.scored.map((s) => s.ndcg)) });
  const [m0, m1] = [means(old), means(now)];
  console.log(
    `  ${'mean'.padEnd(46)} ${m0.recall.toFixed(2).padStart(8)} ${m1.recall.toFixed(2).padStart(8)} ${m0.ndcg.toFixed(2).padStart(8)} ${m1.ndcg.toFixed(2).padStart(8)}`,
  );
  for (const [name, run] of runs) {
    const range = (sims: readonly number[]) =>
      `${pct(Math.min(...sims))}–${pct(Math.max(...sims))} (median ${pct(quantile(sims, 0.5))}, p90 ${pct(quantile(sims, 0.9))}; bands: ${bandCounts(sims)})`;
    console.log(`  ${name}: demo embedded in ${run.embedSeconds.toFixed(1)} s; similarity of every chunk to each query —`);
    console.log(`    relevant (answers or bears_on): ${range(run.relevant)}`);
    console.log(`    irrelevant:                     ${range(run.irrelevant)}`);
  }
  for (const [name, run] of runs) {
    const m = means(run);
    const note = `mean over the ${run.scored.length} demo questions and topics; stand-in embedding by ${name}`;
    figure('relevance', {
      name: `recall@8 (${name})`,
      value: m.recall,
      unit: '',
      engine: 'PGlite',
      note,
      ...(name === 'meaning' && { goal: { atLeast: 0.9 } }),
    });
    figure('relevance', { name: `nDCG@8 (${name})`, value: m.ndcg, unit: '', engine: 'PGlite', note });
  }
};
