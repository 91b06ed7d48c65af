/**
 * The evaluation CLI against the twin's Bedrock stand-in, over the real AI gateway (SDK client, quota,
 * ledger on a test database): a live run with the judge, `record` then `--offline` reproducing it,
 * a run where no model answers, prompts from a database; and the evals' prompts held word for word
 * to the generation worker's and the quality checks'.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { main, type CliDeps } from '../../evals/cli';
import type { Fixture } from '../../evals/fixtures';
import { renderFixture, seededTemplates } from '../../evals/render';
import { resultsSchema, type Results } from '../../evals/results';
import type { AiGateway, ConverseRequest } from '#core/ai/gateway';
import type { NonceSource } from '#core/analysis/evidence-markers';
import { generateAnalysis } from '#core/analysis/generation';
import { runQualityCheck } from '#core/analysis/quality';
import { DEFAULT_AI_MODELS } from '#core/config';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import { toVectorLiteral } from '#core/embeddings/sources';
import { startBedrockStandin, type BedrockStandin } from '../../lib/twin/bedrock/standin';
import { testEngine, useTestDatabase } from '../support/db';
import { readFile } from 'node:fs/promises';
import { setEnv } from '../support/config-env';
import { fakeEmbedTexts } from '../support/ai';
import { evidenceSource } from '../support/fixtures';

const db = useTestDatabase();
let standin: BedrockStandin;
let dir: string;
const ENV_KEYS = ['AWS_ENDPOINT_URL_BEDROCK_RUNTIME', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  standin = await startBedrockStandin();
  dir = await mkdtemp(path.join(tmpdir(), 'evals-live-'));
  // as the twin sets them for its handlers: the SDK's own endpoint variable, dummy credentials
  setEnv({
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: standin.url,
    AWS_ACCESS_KEY_ID: 'twin',
    AWS_SECRET_ACCESS_KEY: 'twin',
    AWS_REGION: 'us-east-1',
  });
});
afterAll(async () => {
  setEnv(savedEnv);
  await standin.stop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  standin.clearFaults();
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
});

/** The CLI with the test database as its database (left open for the assertions). */
const run = async (argv: string[], deps: CliDeps = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const openDatabase = async () => ({ db, engine: testEngine(), close: async () => undefined });
  const code = await main(
    argv,
    { stdout: { write: (s) => out.push(s) }, stderr: { write: (s) => err.push(s) } },
    { openDatabase, ...deps },
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
};
const readResults = async (file: string): Promise<Results> => resultsSchema.parse(JSON.parse(await readFile(file, 'utf8')));

test("a live run answers through the gateway and adds the judge's scores with their reasons", async () => {
  const file = path.join(dir, 'live.json');
  const { code, stdout } = await run(['--category', 'basic', '--version', 'live', '--output', file]);
  expect(code).toBe(0);
  const results = await readResults(file);
  expect(results.run.mode).toBe('live');
  // the models that answered: the analysis model, and the quality model for the quality verdict fixtures
  expect(results.models).toEqual({
    analysis: [...new Set([DEFAULT_AI_MODELS.analysis, DEFAULT_AI_MODELS.quality])].sort(),
    judge: DEFAULT_AI_MODELS.judge,
  });
  const analyses = results.fixtures.filter((f) => f.structure.kind === 'analysis');
  const verdicts = results.fixtures.filter((f) => f.structure.kind === 'quality');
  expect(analyses.every((f) => f.output.source === 'live' && f.output.standin && f.structure.schema_valid)).toBe(true);
  expect(analyses.every((f) => f.judge && f.judge.accuracy.score >= 1 && f.judge.accuracy.reason.includes('[stand-in]'))).toBe(true);
  expect(verdicts.every((f) => f.judge === undefined && f.structure.kind === 'quality' && f.structure.score !== null)).toBe(true);
  expect(results.metrics.judge_readable_rate).toBe(1);
  expect(results.metrics.judge_relevance).toEqual(expect.any(Number));
  expect(stdout).toMatch(/judge_professional_tone\s+\d+\.\d%/);
  expect(stdout).toContain("came from the twin's Bedrock stand-in");

  // every call went through the gateway: one answer per fixture (analysis or quality), one judge call per analysis
  const ledger = await db.selectFrom('ai_calls').select(['purpose', 'outcome']).execute();
  const count = (purpose: string) => ledger.filter((r) => r.purpose === purpose && r.outcome === 'ok').length;
  expect([count('analysis'), count('quality'), count('judge')]).toEqual([analyses.length, verdicts.length, analyses.length]);
  expect(standin.stats()['us-east-1']?.ok).toBe(ledger.length);
});

test('`record` stores the answers, and an offline run over them reproduces the live structural metrics', async () => {
  const recordings = path.join(dir, 'recordings');
  const recorded = await run(['record', '--category', 'edge'], { recordingsDir: recordings });
  expect(recorded.code).toBe(0);
  expect(recorded.stdout).toMatch(/Recorded 6 of 6 fixture\(s\)/);
  const recording = JSON.parse(await readFile(path.join(recordings, 'edge', 'huge-evidence-summary.json'), 'utf8'));
  expect(recording).toMatchObject({
    fixture_id: 'huge-evidence-summary',
    prompt_type: 'analysis_summary',
    prompt_version: 2,
    templates: 'seed',
    standin: true,
    region: 'us-east-1',
  });

  const [offlineFile, liveFile] = [path.join(dir, 'offline.json'), path.join(dir, 'live-edge.json')];
  expect((await run(['--offline', '--category', 'edge', '--output', offlineFile], { recordingsDir: recordings })).code).toBe(0);
  expect((await run(['--category', 'edge', '--output', liveFile])).code).toBe(0);
  const [offline, live] = [await readResults(offlineFile), await readResults(liveFile)];
  expect(offline.fixtures.map((f) => f.structure)).toEqual(live.fixtures.map((f) => f.structure));
  expect(offline.fixtures.every((f) => !f.output.stale && f.judge === undefined)).toBe(true);
});

test('when no model answers, the run fails with a message instead of scoring nothing', async () => {
  for (const region of ['us-east-1', 'us-west-2']) standin.setFaults(region, { outage: true });
  const result = await run(['--fixture', 'question-duplicate-payment']);
  expect(result.code).toBe(2);
  expect(result.stdout).toMatch(/Model call failures:\n {2}basic\/question-duplicate-payment: AiUnavailableError/);
  expect(result.stderr).toMatch(/no fixture got an answer from the model .*check the Bedrock endpoint and credentials/);
}, 20_000);

test('--templates database evaluates the active versions: a new version makes its recordings stale, which fails --compare', async () => {
  const before = path.join(dir, 'db-before.json');
  expect((await run(['--offline', '--templates', 'database', '--category', 'basic', '--output', before])).code).toBe(0);
  expect((await readResults(before)).fixtures.some((f) => f.output.stale)).toBe(false);

  const v2 = await db
    .selectFrom('prompt_templates')
    .selectAll()
    .where('prompt_type', '=', 'analysis_question')
    .where('version', '=', 2)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('prompt_templates')
    .values({
      prompt_type: 'analysis_question',
      version: 3,
      system_prompt: `${v2.system_prompt}\nBe brief.`,
      user_prompt_template: v2.user_prompt_template,
    })
    .execute();
  const after = path.join(dir, 'db-after.json');
  const { code, stdout } = await run([
    '--offline',
    '--templates',
    'database',
    '--category',
    'basic',
    '--output',
    after,
    '--compare',
    before,
  ]);
  expect(code).toBe(1);
  const results = await readResults(after);
  expect(results.prompts.analysis_question?.version).toBe(3);
  expect(results.fixtures.filter((f) => f.output.stale).map((f) => f.prompt_type)).toEqual(['analysis_question', 'analysis_question']);
  expect(stdout).toContain('prompt analysis_question: v2 → v3 (text changed)');
  expect(stdout).toMatch(
    /STALE: 2 recording\(s\) answered another prompt than the one rendered now, .*: basic\/question-[a-z-]+, basic\/question-[a-z-]+\n {4}record them again with:\n {6}npm run eval -- record --prompt-type analysis_question --templates database\n/,
  );
  await db.deleteFrom('prompt_templates').where('prompt_type', '=', 'analysis_question').where('version', '=', 3).execute();
});

test('the evals render the prompts the generation worker and the quality checks send, word for word', async () => {
  const org = (await db.insertInto('organizations').values({ name: 'Parity Org' }).returning('id').executeTakeFirstOrThrow()).id;
  const investigation = { title: 'Parity investigation', description: 'Whether the evals drift from the service.' };
  const investigationId = (
    await db
      .insertInto('investigations')
      .values({ organization_id: org, ...investigation })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const question = 'Who approved invoice 1042?';
  const questionId = (
    await db.insertInto('questions').values({ investigation_id: investigationId, text: question }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const { evidenceItemId: item, embeddingSourceId: source } = await evidenceSource(db, investigationId, 'Email');
  const unit = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0));
  const text = 'The manager approved invoice 1042 on 3 March.';
  const chunkId = (
    await db
      .insertInto('text_chunks')
      .values({
        investigation_id: investigationId,
        embedding_source_id: source,
        source_type: 'content',
        evidence_item_id: item,
        chunk_index: 0,
        text,
        embedding: toVectorLiteral(unit),
        embedding_model: DEFAULT_AI_MODELS.embedding,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const analysisId = (
    await db
      .insertInto('analyses')
      .values({
        investigation_id: investigationId,
        analysis_type: 'question',
        question_id: questionId,
        regeneration_reason: 'wrong_focus',
        regeneration_direction: 'Focus on the approval.',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

  // stable marker labels for each model call (the worker's are random): generation, faithfulness, coverage
  const labels =
    (call: number): NonceSource =>
    () =>
      `call${call}label`;
  const finding = (citation: string) => ({ summary: 'The manager approved it.', findings: [{ statement: text, citations: [citation] }] });
  const answer = finding('[chunk:call0label]');
  const sent: ConverseRequest[] = [];
  const base = {
    region: 'us-east-1',
    modelId: 'm',
    fellBack: false,
    attempts: 1,
    latencyMs: 1,
    usage: { inputTokens: 1, outputTokens: 1 },
  };
  const gateway = {
    ...fakeEmbedTexts(unit),
    converse: async (request: ConverseRequest) => {
      sent.push(request);
      return { ...base, text: request.purpose === 'analysis' ? JSON.stringify(answer) : '{"score": 1}' };
    },
  } as unknown as AiGateway;
  expect(await generateAnalysis({ db, gateway, markerNonce: labels(0) }, analysisId)).toBe('complete');
  let qualityCall = 1;
  expect(await runQualityCheck({ db, gateway, markerNonce: () => `call${qualityCall++}label` }, analysisId)).toBe('verified');

  const fixture = (promptType: string): Fixture => ({
    id: 'parity',
    category: 'basic',
    file: '',
    description: 'parity',
    prompt_type: promptType,
    investigation,
    question,
    regeneration: { reason: 'wrong_focus', direction: 'Focus on the approval.' },
    evidence: [{ id: chunkId, source: 'Email', text }],
    expectations: {},
    // the analysis as stored: its citation read back to the chunk id
    ...(promptType.startsWith('quality_') && { analysis_under_review: finding(chunkId), regeneration: undefined }),
  });
  // the two checks share one set of markers (their prompts share the evidence as one cached prefix)
  const rendered = await Promise.all(
    (
      [
        ['analysis_question', 0],
        ['quality_faithfulness', 1],
        ['quality_coverage', 1],
      ] as const
    ).map(([t, call]) => renderFixture(fixture(t), seededTemplates(), labels(call))),
  );
  expect(sent.map((r) => ({ system: r.system, prompt: (r.cachedPrefix ?? '') + r.prompt }))).toEqual(
    rendered.map((r) => ({ system: r.system, prompt: r.prompt })),
  );
  expect(rendered[0]!.prompt).toContain('Reason: Wrong focus. Direction: Focus on the approval.');
  expect(rendered[1]!.prompt).toContain(`[chunk:call1label] ${text}`);
  expect(rendered[1]!.prompt).toContain(`${text} (citations: call1label)`);
});
