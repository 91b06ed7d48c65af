/**
 * The evidence check and the selection it runs on, against the real database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL): counts, the blocking message only at zero evidence, the informational
 * note only for a question with nothing linked, background documents and their AI inclusion,
 * attachments, organization scoping, and the refusal shared with create (no evidence, or the type's
 * prompt template deactivated).
 */
import { randomUUID } from 'node:crypto';
import {
  assessmentSchema,
  assessSelection,
  BLOCKING_NO_EVIDENCE,
  generationRefusal,
  noLinkedEvidenceNote,
  processingNote,
} from '#core/analysis/assess';
import { assertCanGenerate } from '#core/analysis/create';
import type { AnalysisType } from '#core/domain/analysis-types';
import { promptUnavailableMessage } from '#core/analysis/prompts';
import { resolveSelection } from '#core/analysis/selection';
import { analysisCreateRoute } from '#core/analysis/contract';
import { parseBodyWith } from '#core/contract';
import { DomainError } from '#core/errors';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

const ids = {
  org: '',
  otherOrg: '',
  empty: '',
  backgroundOnly: '',
  full: '',
  theirs: '',
  linkedQuestion: '',
  unlinkedQuestion: '',
  emptyQuestion: '',
  theirQuestion: '',
  topic: '',
};

const investigation = async (organizationId: string, title: string) =>
  (await db.insertInto('investigations').values({ organization_id: organizationId, title }).returning('id').executeTakeFirstOrThrow()).id;
const question = async (investigationId: string, text: string) =>
  (await db.insertInto('questions').values({ investigation_id: investigationId, text }).returning('id').executeTakeFirstOrThrow()).id;
const evidence = async (investigationId: string, title: string, content: string) =>
  (
    await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title, content })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const backgroundDoc = async (investigationId: string, title: string, included: boolean) => {
  await db
    .insertInto('background_documents')
    .values({
      investigation_id: investigationId,
      title,
      file_name: `${title}.txt`,
      content_type: 'text/plain',
      storage_key: `background/${randomUUID()}`,
      included_for_ai: included,
    })
    .execute();
};
const attachment = async (evidenceItemId: string, fileName: string) => {
  await db
    .insertInto('attachments')
    .values({
      evidence_item_id: evidenceItemId,
      file_name: fileName,
      content_type: 'application/pdf',
      storage_key: `attachments/${randomUUID()}`,
    })
    .execute();
};

beforeAll(async () => {
  ids.org = (await db.insertInto('organizations').values({ name: 'Assess Org' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.otherOrg = (await db.insertInto('organizations').values({ name: 'Other Org' }).returning('id').executeTakeFirstOrThrow()).id;

  // no evidence at all, and a question asked of it
  ids.empty = await investigation(ids.org, 'Empty');
  ids.emptyQuestion = await question(ids.empty, 'Anything?');
  // background documents but no evidence items
  ids.backgroundOnly = await investigation(ids.org, 'Policies only');
  await backgroundDoc(ids.backgroundOnly, 'Code of conduct', true);

  // four items: three with text (one of them also with two attachments), one blank with an attachment
  ids.full = await investigation(ids.org, 'Full');
  ids.linkedQuestion = await question(ids.full, 'Who approved the invoices?');
  ids.unlinkedQuestion = await question(ids.full, 'Was anyone else involved?');
  ids.topic = (
    await db
      .insertInto('topics')
      .values({ investigation_id: ids.full, title: 'Approvals', description: 'Who signed what' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const a = await evidence(ids.full, 'Email', 'Please approve invoice 1042.');
  const b = await evidence(ids.full, 'Interview', 'The clerk said the manager approved it.');
  await evidence(ids.full, 'Ledger note', 'Paid on 3 May.');
  const scan = await evidence(ids.full, 'Scanned invoice', '  \n\t ');
  await attachment(a, 'invoice-1042.pdf');
  await attachment(a, 'approval.pdf');
  await attachment(scan, 'scan.pdf');
  await db
    .insertInto('evidence_question_links')
    .values([
      { evidence_item_id: a, question_id: ids.linkedQuestion },
      { evidence_item_id: b, question_id: ids.linkedQuestion },
    ])
    .execute();
  await backgroundDoc(ids.full, 'Procurement policy', true);
  await backgroundDoc(ids.full, 'Delegation of authority', true);
  await backgroundDoc(ids.full, 'Old policy (superseded)', false);

  // another organization's investigation, with evidence linked to its question
  ids.theirs = await investigation(ids.otherOrg, 'Theirs');
  ids.theirQuestion = await question(ids.theirs, 'Their question');
  const theirs = await evidence(ids.theirs, 'Their item', 'text');
  await db.insertInto('evidence_question_links').values({ evidence_item_id: theirs, question_id: ids.theirQuestion }).execute();
});

/** The assessment as the route answers it: assessSelection, the selection and its counts in one statement. */
const assess = async (investigationId: string, analysisType: AnalysisType, questionId?: string) =>
  (
    await assessSelection(
      db,
      ids.org,
      parseBodyWith(analysisCreateRoute, {
        investigation_id: investigationId,
        analysis_type: analysisType,
        ...(analysisType === 'question' && { question_id: questionId }),
        ...(analysisType === 'topic' && { topic_id: ids.topic }),
      }),
    )
  ).assessment;

describe('assessSelection: the counts', () => {
  test('zero evidence: blocking, cannot generate, and no note even for an unlinked question', async () => {
    for (const [analysisType, questionId] of [['summary'], ['question', ids.emptyQuestion]] as const) {
      const result = await assess(ids.empty, analysisType, questionId);
      expect(result.blocking).toBe(BLOCKING_NO_EVIDENCE);
      expect(result.refusal).toEqual({ reason: 'no_evidence', message: BLOCKING_NO_EVIDENCE });
      expect(result.can_generate).toBe(false);
      expect(result.note).toBeNull();
      expect(result.total_evidence).toBe(0);
      expect(result.source_breakdown).toEqual({ content: 0, attachments: 0, background_docs: 0 });
      expect(result.background_documents).toEqual({ count: 0, included: false, included_count: 0 });
    }
    expect((await assess(ids.empty, 'question', ids.emptyQuestion)).linked_evidence).toBe(0);
  });

  test('background documents alone are not evidence: still blocking, and the message says why', async () => {
    const result = await assess(ids.backgroundOnly, 'gap');
    expect(result.can_generate).toBe(false);
    expect(result.blocking).toMatch(/^This investigation has no evidence yet\./);
    expect(result.blocking).toMatch(/Background documents are reference material, not evidence/);
    expect(result.background_documents).toEqual({ count: 1, included: true, included_count: 1 });
    expect(result.source_breakdown.background_docs).toBe(1);
  });

  test('evidence but nothing linked to the question: an informational note, no blocking', async () => {
    const result = await assess(ids.full, 'question', ids.unlinkedQuestion);
    expect(result.linked_evidence).toBe(0);
    expect(result.note).toBe(noLinkedEvidenceNote(4));
    expect(result.note).toMatch(/No evidence is linked directly to this question.*semantic similarity/);
    expect(result.blocking).toBeNull();
    expect(result.can_generate).toBe(true);
  });

  test('linked evidence: every figure counted', async () => {
    const result = await assess(ids.full, 'question', ids.linkedQuestion);
    expect(result).toEqual({
      total_evidence: 4,
      linked_evidence: 2,
      background_documents: { count: 3, included: true, included_count: 2 },
      // the blank item is not a content source; its attachment is an attachment source; the excluded document is no source
      source_breakdown: { content: 3, attachments: 3, background_docs: 2 },
      evidence_ready: { ready: 4, total: 4 },
      note: null,
      blocking: null,
      refusal: null,
      can_generate: true,
    });
    expect(assessmentSchema.parse(result)).toEqual(result);
  });

  test.each(['topic', 'summary', 'gap', 'error_check'] as const)('%s: no linked count and no note', async (analysisType) => {
    const result = await assess(ids.full, analysisType);
    expect(result.linked_evidence).toBeNull();
    expect(result.note).toBeNull();
    expect(result.total_evidence).toBe(4);
    expect(result.can_generate).toBe(true);
  });

  test('evidence still being processed: evidence_ready counts what is ready, and a note says an analysis waits a little for the rest', async () => {
    const processing = await investigation(ids.org, 'Arriving');
    const unlinked = await question(processing, 'Who knew?');
    const ready = await evidence(processing, 'Ready', 'Embedded already.');
    const typed = await evidence(processing, 'Typed', 'Waiting for its embeddings.');
    const filed = await evidence(processing, 'Filed', '');
    const broken = await evidence(processing, 'Broken', '');
    const source = (item: string, status: 'embedded' | 'pending' | 'error', attempts = 0) => ({
      investigation_id: processing,
      source_type: 'content' as const,
      source_id: item,
      evidence_item_id: item,
      status,
      attempts,
    });
    await db
      .insertInto('embedding_sources')
      .values([source(ready, 'embedded'), source(typed, 'pending'), source(broken, 'error', 5)])
      .execute();
    // a file being extracted; a background document being extracted is not evidence and is not counted
    await db
      .insertInto('attachments')
      .values({
        evidence_item_id: filed,
        file_name: 'scan.pdf',
        content_type: 'application/pdf',
        storage_key: `a/${randomUUID()}`,
        extraction_status: 'pending',
      })
      .execute();
    await db
      .insertInto('background_documents')
      .values({
        investigation_id: processing,
        title: 'Policy',
        file_name: 'p.pdf',
        content_type: 'application/pdf',
        storage_key: `b/${randomUUID()}`,
        extraction_status: 'pending',
      })
      .execute();

    const result = await assess(processing, 'question', unlinked);
    // two processing, one failed (given up: it is analysed without that text), one ready
    expect(result.evidence_ready).toEqual({ ready: 1, total: 4 });
    expect(result.note).toBe(`${noLinkedEvidenceNote(4)} ${processingNote(2, 4)}`);
    expect(result.note).toMatch(/2 of 4 evidence items are still being processed .*waits a little for them/);
    expect(result.can_generate).toBe(true);
    expect((await assess(processing, 'summary')).note).toBe(processingNote(2, 4));
    expect(assessmentSchema.parse(result)).toEqual(result);
  });

  test('no background document included for the AI: included false, none counted as a source', async () => {
    await db.updateTable('background_documents').set({ included_for_ai: false }).where('investigation_id', '=', ids.full).execute();
    try {
      const result = await assess(ids.full, 'summary');
      expect(result.background_documents).toEqual({ count: 3, included: false, included_count: 0 });
      expect(result.source_breakdown.background_docs).toBe(0);
    } finally {
      await db
        .updateTable('background_documents')
        .set({ included_for_ai: true })
        .where('title', 'in', ['Procurement policy', 'Delegation of authority'])
        .execute();
    }
  });
});

describe('generationRefusal', () => {
  test('evidence first, then an active template; null when both hold', () => {
    expect(generationRefusal({ blocking: 'none', promptType: 'analysis_gap', promptActive: false })).toEqual({
      reason: 'no_evidence',
      message: 'none',
    });
    expect(generationRefusal({ blocking: null, promptType: 'analysis_gap', promptActive: false })).toEqual({
      reason: 'prompt_inactive',
      message: promptUnavailableMessage('analysis_gap'),
    });
    expect(generationRefusal({ blocking: null, promptType: 'analysis_gap', promptActive: true })).toBeNull();
  });
});

describe('a deactivated prompt template: assess and create refuse alike', () => {
  const setActive = (promptType: string, isActive: boolean) =>
    db.updateTable('prompt_templates').set({ is_active: isActive }).where('prompt_type', '=', promptType).execute();
  /** create's refusal of the same selection, as its 409 carries it */
  const createRefusal = async (request: object) => {
    const error = await assertCanGenerate(db, ids.org, parseBodyWith(analysisCreateRoute, request)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    const { kind, message, details } = error as DomainError;
    return { kind, message, details };
  };

  test('cannot generate, with the reason create answers 409 with; other types and reactivation unaffected', async () => {
    await setActive('analysis_gap', false);
    try {
      const result = await assess(ids.full, 'gap');
      const refusal = { reason: 'prompt_inactive', message: promptUnavailableMessage('analysis_gap') };
      expect(result).toMatchObject({ total_evidence: 4, blocking: null, refusal, can_generate: false });
      expect(refusal.message).toMatch(/analysis_gap is deactivated; an administrator must activate a version/);
      expect(assessmentSchema.parse(result)).toEqual(result);
      expect(await createRefusal({ investigation_id: ids.full, analysis_type: 'gap' })).toEqual({
        kind: 'conflict',
        message: refusal.message,
        details: { reason: 'prompt_inactive' },
      });

      // no evidence is reported first: adding evidence is the investigator's to do, the template an administrator's
      const empty = await assess(ids.empty, 'gap');
      expect(empty.refusal).toEqual({ reason: 'no_evidence', message: BLOCKING_NO_EVIDENCE });
      expect(await createRefusal({ investigation_id: ids.empty, analysis_type: 'gap' })).toEqual({
        kind: 'conflict',
        message: BLOCKING_NO_EVIDENCE,
        details: { reason: 'no_evidence' },
      });

      expect((await assess(ids.full, 'summary')).can_generate).toBe(true);
    } finally {
      await setActive('analysis_gap', true);
    }
    expect(await assess(ids.full, 'gap')).toMatchObject({
      refusal: null,
      can_generate: true,
    });
  });
});

describe('resolveSelection', () => {
  const notFoundMessage = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('not_found');
    return (error as DomainError).message;
  };

  test('loads the investigation with its question or topic', async () => {
    const q = await resolveSelection(
      db,
      ids.org,
      parseBodyWith(analysisCreateRoute, { investigation_id: ids.full, analysis_type: 'question', question_id: ids.linkedQuestion }),
    );
    expect(q).toEqual({
      investigation: { id: ids.full, organization_id: ids.org, title: 'Full' },
      question: { id: ids.linkedQuestion, text: 'Who approved the invoices?' },
    });
    const t = await resolveSelection(
      db,
      ids.org,
      parseBodyWith(analysisCreateRoute, { investigation_id: ids.full, analysis_type: 'topic', topic_id: ids.topic }),
    );
    expect(t.topic).toEqual({ id: ids.topic, title: 'Approvals', description: 'Who signed what' });
    expect(t.question).toBeUndefined();
    const s = await resolveSelection(
      db,
      ids.org,
      parseBodyWith(analysisCreateRoute, { investigation_id: ids.full, analysis_type: 'summary' }),
    );
    expect(s).toEqual({ investigation: { id: ids.full, organization_id: ids.org, title: 'Full' } });
  });

  test("another organization's investigation is not found, exactly like a missing one", async () => {
    const theirs = notFoundMessage(
      resolveSelection(db, ids.org, parseBodyWith(analysisCreateRoute, { investigation_id: ids.theirs, analysis_type: 'summary' })),
    );
    const missing = notFoundMessage(
      resolveSelection(db, ids.org, parseBodyWith(analysisCreateRoute, { investigation_id: randomUUID(), analysis_type: 'summary' })),
    );
    expect(await theirs).toBe('The investigation was not found.');
    expect(await missing).toBe('The investigation was not found.');
    // and the other way round
    expect(
      await notFoundMessage(
        resolveSelection(db, ids.otherOrg, parseBodyWith(analysisCreateRoute, { investigation_id: ids.full, analysis_type: 'gap' })),
      ),
    ).toBe('The investigation was not found.');
  });

  test('a question or topic must belong to the selected investigation', async () => {
    const request = (body: object) => parseBodyWith(analysisCreateRoute, { investigation_id: ids.full, ...body });
    expect(await notFoundMessage(resolveSelection(db, ids.org, request({ analysis_type: 'question', question_id: randomUUID() })))).toBe(
      'The question was not found.',
    );
    expect(
      await notFoundMessage(resolveSelection(db, ids.org, request({ analysis_type: 'question', question_id: ids.emptyQuestion }))),
    ).toBe('The question was not found.');
    expect(await notFoundMessage(resolveSelection(db, ids.org, request({ analysis_type: 'topic', topic_id: randomUUID() })))).toBe(
      'The topic was not found.',
    );
    expect(await notFoundMessage(resolveSelection(db, ids.org, request({ analysis_type: 'topic', topic_id: ids.linkedQuestion })))).toBe(
      'The topic was not found.',
    );
  });
});
