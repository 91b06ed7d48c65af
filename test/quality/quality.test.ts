/**
 * Quality checks on the real database with a fake gateway: verified with scores and confidence, a
 * failed check back to complete with [QUALITY_CHECK_FAILURE], a shed check to quality_unavailable,
 * duplicate messages as no-ops, the manual start's 404/409 rules, and the polling view.
 */
import type { AiGateway, ConverseRequest, ConverseResult } from '#core/ai/gateway';
import { AiUnavailableError } from '#core/ai/errors';
import { QualityShedError } from '#core/ai/shedder';
import {
  aspectVerdicts,
  claimPart,
  qualityStateOf,
  qualityStatus,
  readVerdict,
  renderAnalysis,
  requestQualityCheck,
  revertQualityStart,
  runQualityCheck,
  sharedPromptPrefix,
  startQualityCheck,
  UnreadableVerdictError,
} from '#core/analysis/quality';
import type { GenerationStatus } from '#core/db/schema';
import { DomainError } from '#core/errors';
import { logger } from '#core/logger';
import { issueMarkers } from '#core/analysis/evidence-markers';
import { useTestDatabase } from '../support/db';
import { evidenceSource } from '../support/fixtures';

const db = useTestDatabase();
const ids = { org: '', otherOrg: '', investigation: '', question: '', chunkA: '', chunkB: '', chunkOut: '' };

const answer = (text: string): ConverseResult => ({
  text,
  region: 'us-east-1',
  modelId: 'test-model',
  fellBack: false,
  attempts: 1,
  latencyMs: 1,
  usage: { inputTokens: 1, outputTokens: 1 },
});

/** A gateway whose converse answers by prompt type (faithfulness first, then coverage). */
const fakeGateway = (reply: (request: ConverseRequest, n: number) => Promise<string> | string) => {
  const calls: ConverseRequest[] = [];
  const gateway: Pick<AiGateway, 'converse'> = {
    converse: async (request) => {
      calls.push(request);
      return answer(await reply(request, calls.length));
    },
  };
  return { gateway, calls };
};

const verdict = (score: number) => JSON.stringify({ score, claims: [{ statement: 'x', supported: true, citations: [] }], rationale: 'ok' });

beforeAll(async () => {
  ids.org = (await db.insertInto('organizations').values({ name: 'Quality Org' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.otherOrg = (await db.insertInto('organizations').values({ name: 'Other Org' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.investigation = (
    await db.insertInto('investigations').values({ organization_id: ids.org, title: 'Invoices' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  ids.question = (
    await db
      .insertInto('questions')
      .values({ investigation_id: ids.investigation, text: 'Who approved invoice 1042?' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const { evidenceItemId: evidence, embeddingSourceId: source } = await evidenceSource(db, ids.investigation, 'Email');
  const chunk = async (index: number, text: string) =>
    (
      await db
        .insertInto('text_chunks')
        .values({
          investigation_id: ids.investigation,
          embedding_source_id: source,
          source_type: 'content',
          evidence_item_id: evidence,
          chunk_index: index,
          text,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  ids.chunkA = await chunk(0, 'The manager approved invoice 1042 on 3 March.');
  ids.chunkB = await chunk(1, 'The clerk entered invoice 1042 twice.');
  ids.chunkOut = await chunk(2, 'The canteen menu changed in April.');
});

const RESULT = {
  summary: 'The manager approved invoice 1042.',
  findings: [
    { statement: 'The manager approved invoice 1042 on 3 March.', citations: [] as string[] },
    { statement: 'It was entered twice.', citations: [] as string[] },
  ],
  confidence: 'possible',
  evidence_gaps: [],
};

const analysis = async (status: GenerationStatus, extra: { updated_at?: Date; meanIncluded?: number | null } = {}) => {
  const result = {
    ...RESULT,
    findings: [
      { ...RESULT.findings[0]!, citations: [ids.chunkA] },
      { ...RESULT.findings[1]!, citations: [ids.chunkB] },
    ],
  };
  const id = (
    await db
      .insertInto('analyses')
      .values({
        investigation_id: ids.investigation,
        analysis_type: 'question',
        question_id: ids.question,
        generation_status: status,
        result: JSON.stringify(result),
        retrieval_quality: extra.meanIncluded === null ? null : JSON.stringify({ mean_included_similarity: extra.meanIncluded ?? 0.8 }),
        ...(extra.updated_at && { updated_at: extra.updated_at }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await db
    .insertInto('retrieval_records')
    .values([
      {
        analysis_id: id,
        rank: 1,
        chunk_id: ids.chunkA,
        source_type: 'content',
        similarity: 0.8,
        included: true,
        evidence_item_id: null,
        background_document_id: null,
        exclusion_reason: null,
      },
      {
        analysis_id: id,
        rank: 2,
        chunk_id: ids.chunkB,
        source_type: 'content',
        similarity: 0.7,
        included: true,
        evidence_item_id: null,
        background_document_id: null,
        exclusion_reason: null,
      },
      {
        analysis_id: id,
        rank: 3,
        chunk_id: ids.chunkOut,
        source_type: 'content',
        similarity: 0.1,
        included: false,
        evidence_item_id: null,
        background_document_id: null,
        exclusion_reason: 'below similarity threshold',
      },
    ])
    .execute();
  return id;
};

const row = (id: string) => db.selectFrom('analyses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

let errorLog: jest.SpyInstance;
beforeEach(() => {
  errorLog = jest.spyOn(logger, 'error');
});
afterEach(() => errorLog.mockRestore());

const failureLogged = (id: string) =>
  errorLog.mock.calls.some(
    ([message, extra]) => message === '[QUALITY_CHECK_FAILURE]' && (extra as { analysisId?: string })?.analysisId === id,
  );

describe('runQualityCheck', () => {
  test('complete → verified: both prompts get the analysis and the included evidence only; scores and confidence stored', async () => {
    const id = await analysis('complete');
    const { gateway, calls } = fakeGateway((_, n) => verdict(n === 1 ? 0.9 : 0.75));
    const now = new Date('2025-03-01T12:00:00.000Z');
    expect(await runQualityCheck({ db, gateway, now: () => now }, id)).toBe('verified');
    const after = await row(id);
    expect(after).toMatchObject({
      generation_status: 'verified',
      faithfulness_score: 0.9,
      coverage_score: 0.75,
      quality_confidence: 'probable',
      quality_error: null,
    });
    expect(new Date(after.quality_checked_at!).toISOString()).toBe(now.toISOString());

    expect(calls).toHaveLength(2);
    expect(calls.every((c) => c.purpose === 'quality' && c.analysisId === id)).toBe(true);
    // one system prompt and one cached prefix for both checks: the evidence and the analysis under review; each
    // check's own ask follows it
    const [faithfulness, coverage] = calls as [ConverseRequest, ConverseRequest];
    expect(coverage.system).toBe(faithfulness.system);
    expect(coverage.cachedPrefix).toBe(faithfulness.cachedPrefix);
    expect(faithfulness.prompt).toMatch(/^\s*Check faithfulness/);
    expect(coverage.prompt).toContain('Who approved invoice 1042?');
    expect(coverage.prompt).toMatch(/Check coverage/);
    const prefix = faithfulness.cachedPrefix!;
    // the passages, marked with labels issued for this check, and the analysis citing them by those labels
    const [, a, b] =
      /^\[chunk:(\w+)\] The manager approved invoice 1042 on 3 March\.\n\n\[chunk:(\w+)\] The clerk entered/m.exec(prefix) ?? [];
    expect(prefix).toContain('Summary: The manager approved invoice 1042.');
    expect(prefix).toContain(`on 3 March. (citations: ${a})`);
    expect(prefix).toContain(`twice. (citations: ${b})`);
    // the evidence comes before the analysis under review
    expect(prefix.indexOf('[chunk:')).toBeLessThan(prefix.indexOf('Summary:'));
    for (const c of calls) {
      const whole = c.cachedPrefix! + c.prompt;
      for (const id of [ids.chunkA, ids.chunkB, ids.chunkOut]) expect(whole).not.toContain(id);
      expect(whole).not.toContain('{{');
    }
  });

  test("sharedPromptPrefix: the user prompts' common start up to its last line break, and only under one system prompt", () => {
    const evidence = 'Evidence:\n[chunk:ab] one\n\nAnalysis:\nSummary: x\n\n';
    expect(
      sharedPromptPrefix({ system: 's', user: `${evidence}Check faithfulness.` }, { system: 's', user: `${evidence}Check coverage.` }),
    ).toBe(evidence);
    // a common start that ends inside a line stops at the line before
    expect(sharedPromptPrefix({ system: 's', user: 'a\nbc one' }, { system: 's', user: 'a\nbc two' })).toBe('a\n');
    expect(sharedPromptPrefix({ system: 's', user: 'abc' }, { system: 's', user: 'abd' })).toBe('');
    // a cached prefix starts at the system prompt: different ones share nothing
    expect(sharedPromptPrefix({ system: 's1', user: `${evidence}x` }, { system: 's2', user: `${evidence}y` })).toBe('');
  });

  test('the verdicts are stored claim by claim and aspect by aspect, cited labels as chunk ids; a failed re-check keeps them', async () => {
    const id = await analysis('complete');
    const labelOf = (prompt: string, text: string) => new RegExp(`^\\[chunk:(\\w+)\\] ${text}`, 'm').exec(prompt)![1]!;
    const { gateway } = fakeGateway(({ cachedPrefix = '', prompt }, n) => {
      const approved = labelOf(cachedPrefix + prompt, 'The manager approved');
      return JSON.stringify(
        n === 1
          ? {
              score: 0.5,
              claims: [
                { statement: 'The manager approved invoice 1042 on 3 March.', supported: true, citations: [`chunk:${approved}`, 'forged'] },
                { statement: 'It was entered twice.', supported: false },
                { statement: 'The manager approved invoice 1042.', supported: true, citations: [approved] },
                { statement: 'Something else entirely.', supported: false, citations: [] },
              ],
            }
          : { score: 1, aspects: [{ aspect: 'who approved', addressed: true, citations: [approved] }] },
      );
    });
    expect(await runQualityCheck({ db, gateway }, id)).toBe('verified');
    const after = await row(id);
    expect(after.quality_claims).toEqual([
      {
        statement: 'The manager approved invoice 1042 on 3 March.',
        supported: true,
        chunk_ids: [ids.chunkA],
        part: 'finding',
        finding_index: 0,
      },
      { statement: 'It was entered twice.', supported: false, chunk_ids: [], part: 'finding', finding_index: 1 },
      { statement: 'The manager approved invoice 1042.', supported: true, chunk_ids: [ids.chunkA], part: 'summary', finding_index: null },
      { statement: 'Something else entirely.', supported: false, chunk_ids: [], part: 'unmatched', finding_index: null },
    ]);
    expect(after.coverage_aspects).toEqual([{ aspect: 'who approved', addressed: true, chunk_ids: [ids.chunkA] }]);

    await db.updateTable('analyses').set({ generation_status: 'complete' }).where('id', '=', id).execute();
    expect(await runQualityCheck({ db, gateway: fakeGateway(() => 'not JSON').gateway }, id)).toBe('failed');
    expect(await row(id)).toMatchObject({ quality_claims: after.quality_claims, coverage_aspects: after.coverage_aspects });
  });

  test('weak retrieval softens the confidence one step', async () => {
    const id = await analysis('complete', { meanIncluded: 0.3 });
    const { gateway } = fakeGateway(() => '```json\n' + verdict(0.95) + '\n```');
    expect(await runQualityCheck({ db, gateway }, id)).toBe('verified');
    expect((await row(id)).quality_confidence).toBe('probable');
  });

  test('an answer that is not JSON: back to complete, quality_error set, [QUALITY_CHECK_FAILURE] logged, not thrown', async () => {
    const id = await analysis('complete');
    const { gateway } = fakeGateway(() => 'I think it is fine.');
    expect(await runQualityCheck({ db, gateway }, id)).toBe('failed');
    const after = await row(id);
    expect(after.generation_status).toBe('complete');
    expect(after.quality_error).toMatch(/not JSON/);
    expect(after.faithfulness_score).toBeNull();
    expect(failureLogged(id)).toBe(true);
  });

  test('a score out of range, both regions down, a missing template: all end complete with the reason', async () => {
    const outOfRange = await analysis('complete');
    expect(await runQualityCheck({ db, gateway: fakeGateway(() => verdict(1.5)).gateway }, outOfRange)).toBe('failed');
    expect((await row(outOfRange)).quality_error).toMatch(/score/);

    const down = await analysis('checking');
    expect(
      await runQualityCheck(
        {
          db,
          gateway: fakeGateway(() => {
            throw new AiUnavailableError([]);
          }).gateway,
        },
        down,
      ),
    ).toBe('failed');
    expect(await row(down)).toMatchObject({ generation_status: 'complete', quality_error: expect.stringMatching(/AiUnavailableError/) });
    expect(failureLogged(down)).toBe(true);

    await db.updateTable('prompt_templates').set({ is_active: false }).where('prompt_type', '=', 'quality_coverage').execute();
    try {
      const noTemplate = await analysis('complete');
      const { gateway, calls } = fakeGateway(() => verdict(1));
      expect(await runQualityCheck({ db, gateway }, noTemplate)).toBe('failed');
      expect(calls).toHaveLength(0);
      expect((await row(noTemplate)).quality_error).toMatch(/quality_coverage is deactivated/);
    } finally {
      await db.updateTable('prompt_templates').set({ is_active: true }).where('prompt_type', '=', 'quality_coverage').execute();
    }
  });

  test('a failed re-check of a verified analysis keeps its earlier scores and returns to complete', async () => {
    const id = await analysis('complete');
    await runQualityCheck({ db, gateway: fakeGateway(() => verdict(0.9)).gateway }, id);
    await startQualityCheck(db, id, ids.org);
    expect(await runQualityCheck({ db, gateway: fakeGateway(() => 'nope').gateway }, id)).toBe('failed');
    expect(await row(id)).toMatchObject({ generation_status: 'complete', faithfulness_score: 0.9, quality_confidence: 'established' });
  });

  test('shed (QualityShedError): quality_unavailable without scores, no failure marker', async () => {
    const id = await analysis('complete');
    const { gateway, calls } = fakeGateway(() => {
      throw new QualityShedError(5);
    });
    expect(await runQualityCheck({ db, gateway }, id)).toBe('shed');
    const after = await row(id);
    expect(after).toMatchObject({ generation_status: 'quality_unavailable', faithfulness_score: null, coverage_score: null });
    expect(after.quality_error).toMatch(/shed/);
    expect(calls).toHaveLength(1); // the coverage call is not attempted
    expect(failureLogged(id)).toBe(false);
  });

  test('duplicate or out-of-turn messages are no-ops: verified, quality_unavailable, generating, failed, missing', async () => {
    const { gateway, calls } = fakeGateway(() => verdict(0.5));
    const verified = await analysis('complete');
    await runQualityCheck({ db, gateway: fakeGateway(() => verdict(0.9)).gateway }, verified);
    const before = await row(verified);
    expect(await runQualityCheck({ db, gateway }, verified)).toBe('skipped');
    expect(await row(verified)).toEqual(before);
    for (const status of ['quality_unavailable', 'generating', 'queued', 'failed'] as const) {
      const id = await analysis(status);
      expect(await runQualityCheck({ db, gateway }, id)).toBe('skipped');
      expect((await row(id)).generation_status).toBe(status);
    }
    expect(await runQualityCheck({ db, gateway }, '00000000-0000-4000-8000-000000000000')).toBe('skipped');
    expect(calls).toHaveLength(0);
  });

  test('a message for a row already checking (the manual route) runs the checks', async () => {
    const id = await analysis('checking');
    expect(await runQualityCheck({ db, gateway: fakeGateway(() => verdict(0.7)).gateway }, id)).toBe('verified');
    expect((await row(id)).generation_status).toBe('verified');
  });

  test('when even the failure cannot be recorded, it throws (the message is retried)', async () => {
    const id = await analysis('complete');
    // the claim (→ checking) works; every later write fails, as when the database goes away mid-check
    const broken = new Proxy(db, {
      get: (target, key) =>
        key === 'updateTable'
          ? (table: 'analyses') => {
              const builder = target.updateTable(table);
              return new Proxy(builder, {
                get: (b, k) =>
                  k === 'set'
                    ? (values: { generation_status?: string }) => {
                        if (values.generation_status !== 'checking') throw new Error('database is gone');
                        return b.set(values as never);
                      }
                    : Reflect.get(b, k, b),
              });
            }
          : Reflect.get(target, key),
    });
    await expect(runQualityCheck({ db: broken, gateway: fakeGateway(() => 'not json').gateway }, id)).rejects.toThrow('database is gone');
  });

  test('the database lost mid-check, answering again by the time the failure would be recorded: thrown, so the check runs again; the lease let go', async () => {
    const id = await analysis('complete');
    // node-postgres's error for a connection the database ended (a hung database released, the AI ledger's write)
    const lost = new Error('Connection terminated unexpectedly');
    await expect(
      runQualityCheck(
        {
          db,
          gateway: fakeGateway(() => {
            throw lost;
          }).gateway,
        },
        id,
      ),
    ).rejects.toBe(lost);
    expect(await row(id)).toMatchObject({ generation_status: 'checking', quality_error: null, claimed_until: null });
    expect(failureLogged(id)).toBe(false);
  });
});

describe('startQualityCheck and the polling view', () => {
  test('complete, verified and quality_unavailable may start; 404 for another organization; 409 otherwise', async () => {
    for (const status of ['complete', 'verified', 'quality_unavailable'] as const) {
      const id = await analysis(status);
      expect(await startQualityCheck(db, id, ids.org)).toEqual({ analysis_id: id, previous_status: status });
      expect((await row(id)).generation_status).toBe('checking');
      await revertQualityStart(db, id, status);
      expect((await row(id)).generation_status).toBe(status);
    }
    const theirs = await analysis('complete');
    await expect(startQualityCheck(db, theirs, ids.otherOrg)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(startQualityCheck(db, '00000000-0000-4000-8000-000000000000', ids.org)).rejects.toMatchObject({ kind: 'not_found' });
    for (const status of ['queued', 'generating', 'failed', 'checking'] as const) {
      const id = await analysis(status);
      const error = await startQualityCheck(db, id, ids.org).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: 'conflict' });
      expect((await row(id)).generation_status).toBe(status);
    }
  });

  test('requestQualityCheck queues the check; a queue that refuses puts the status back and answers 503', async () => {
    const sent: string[] = [];
    const queued = await analysis('verified');
    await requestQualityCheck(
      {
        db,
        send: async (m) => {
          sent.push(m.analysis_id);
        },
      },
      queued,
      ids.org,
    );
    expect(sent).toEqual([queued]);
    expect((await row(queued)).generation_status).toBe('checking');

    const refused = await analysis('verified');
    const error = await requestQualityCheck(
      {
        db,
        send: async () => {
          throw new Error('SQS unavailable');
        },
      },
      refused,
      ids.org,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect((await row(refused)).generation_status).toBe('verified');
  });

  test('qualityStatus: state, scores, checking_since; undefined for another organization', async () => {
    const id = await analysis('complete');
    expect(await qualityStatus(db, ids.org, id)).toMatchObject({
      analysis_id: id,
      generation_status: 'complete',
      quality_state: 'not_started',
      checking_since: null,
    });
    await startQualityCheck(db, id, ids.org);
    const checking = await qualityStatus(db, ids.org, id);
    expect(checking).toMatchObject({ quality_state: 'checking' });
    expect(Date.parse(checking!.checking_since!)).not.toBeNaN();
    await runQualityCheck({ db, gateway: fakeGateway(() => verdict(0.8)).gateway }, id);
    expect(await qualityStatus(db, ids.org, id)).toMatchObject({
      generation_status: 'verified',
      quality_state: 'verified',
      faithfulness_score: 0.8,
      coverage_score: 0.8,
      quality_confidence: 'probable',
      quality_error: null,
      checking_since: null,
      quality_checked_at: expect.any(String),
    });
    expect(await qualityStatus(db, ids.otherOrg, id)).toBeUndefined();
  });

  test('qualityStateOf', () => {
    expect(qualityStateOf('complete', null)).toBe('not_started');
    expect(qualityStateOf('complete', 'x')).toBe('failed');
    expect(qualityStateOf('checking', 'x')).toBe('checking');
    expect(qualityStateOf('verified', null)).toBe('verified');
    expect(qualityStateOf('quality_unavailable', 'shed')).toBe('unavailable');
    expect(qualityStateOf('generating', null)).toBe('not_started');
  });
});

describe('pure helpers', () => {
  test('readVerdict reads fenced JSON and rejects the rest', () => {
    expect(readVerdict('faithfulness', 'Here: ```json\n{"score": 0.4, "claims": []}\n```').score).toBe(0.4);
    expect(() => readVerdict('coverage', '{"score": "high"}')).toThrow(UnreadableVerdictError);
    expect(() => readVerdict('coverage', 'no')).toThrow(/not JSON/);
  });

  test('aspectVerdicts reads a coverage answer of an earlier prompt version, whose aspects are its claims', () => {
    const markers = issueMarkers(['c1'], () => 'k7q2f9xm');
    const old = readVerdict(
      'coverage',
      JSON.stringify({ score: 0.5, claims: [{ statement: 'when', supported: true, citations: ['k7q2f9xm'] }] }),
    );
    expect(aspectVerdicts(old, markers)).toEqual([{ aspect: 'when', addressed: true, chunk_ids: ['c1'] }]);
    expect(aspectVerdicts(readVerdict('coverage', '{"score": 0}'), markers)).toEqual([]);
  });

  test("claimPart: the finding or summary holding most of the claim's words, a finding on a tie, none under 60 %", () => {
    const answer = {
      summary: 'Ann paid the invoice.',
      findings: [{ statement: 'Ann paid the invoice on 3 May.' }, { statement: 'Bob signed.' }],
    };
    expect(claimPart('Ann paid the invoice on 3 May', answer)).toEqual({ part: 'finding', finding_index: 0 });
    expect(claimPart('Ann paid the invoice', answer)).toEqual({ part: 'summary', finding_index: null });
    expect(claimPart('Bob signed it', answer)).toEqual({ part: 'finding', finding_index: 1 });
    expect(claimPart('Ann paid the invoice, it says.', { summary: answer.summary, findings: [] })).toEqual({
      part: 'summary',
      finding_index: null,
    });
    expect(claimPart('Carol audited the books', answer)).toEqual({ part: 'unmatched', finding_index: null });
    expect(claimPart('Ann paid', null)).toEqual({ part: 'unmatched', finding_index: null });
  });

  test('renderAnalysis cites by the labels issued for the call, plain, and never writes a marker', () => {
    const issued = ['k7q2f9xm', 'p3b5zz2a'];
    const markers = issueMarkers(['c1', 'c2'], () => issued.shift()!);
    const text = renderAnalysis(
      {
        summary: 'S [chunk:c1].',
        findings: [
          { statement: 'A [chunk:c2].', citations: ['c1', 'c2'] },
          { statement: 'B.', citations: [] },
        ],
      },
      markers,
    );
    expect(text).toBe('Summary: S (chunk:c1).\n\nFindings:\n1. A (chunk:c2). (citations: k7q2f9xm, p3b5zz2a)\n2. B. (no citations)');
    expect(renderAnalysis(null, markers)).toBe('');
  });
});
