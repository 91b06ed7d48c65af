/**
 * Quality checks of a generated analysis (SPEC "States and transitions"): complete → checking →
 * verified; any failure → complete with `[QUALITY_CHECK_FAILURE]` logged; shed → quality_unavailable.
 * Never left on checking: every way out of a check writes a resting status, and the watchdog
 * (watchdog.ts) releases what a crashed worker left behind.
 *
 * Protocol (who moves the row into checking):
 * - the generation worker queues `{ analysis_id }` after complete: the message means "check it", and the
 *   quality worker itself moves complete → checking;
 * - the manual route (startQualityCheck) moves complete | verified | quality_unavailable → checking,
 *   then queues the same message; the worker finds the row already checking and runs the checks.
 * So a message runs the checks when the row is complete or checking, and is a no-op otherwise: a
 * duplicate finding verified (or quality_unavailable) changes nothing, and an analysis still being
 * generated (or failed, or gone) is not checked. A message redelivered after a worker crashed finds
 * checking (or complete, if the watchdog released it meanwhile) and runs the checks again (redelivery
 * as a whole: domain/generation-status.ts).
 * Two copies of one message delivered at the same moment may both run the checks; every write is
 * conditional on checking and both write the same kind of result, so the row still ends in one state.
 *
 * Decisions where the spec is silent:
 * - a failed or shed check keeps earlier scores ("quality never degrades"); quality_error says why the
 *   last check did not finish, and is cleared by the next successful one;
 * - a failed check returns to complete even when it came from quality_unavailable (SPEC invariant:
 *   complete or quality_unavailable after a failed check; complete is the state a re-check starts from);
 * - each check is its own model call with fresh evidence markers (evidence-markers.ts): {{evidence}} is
 *   the included retrieval chunks of the analysis, `[chunk:<label>] text` separated by blank lines, in
 *   rank order; {{analysis}} is the summary and the findings with their citations written as the labels
 *   issued for that call, plain (never as `[chunk:…]` markers, which would read as evidence passages),
 *   so the checker can match a citation to its passage. The analysis, question and topic are
 *   neutralised like all text the service did not issue;
 * - beside the scores, the same conditional write stores the verdicts in detail (migration 0020): the faithfulness
 *   check's claims (claimVerdicts: supported or not, the chunks they rest on, the finding or summary each reviews)
 *   and the coverage check's aspects (aspectVerdicts: addressed or missing); a failed or shed check keeps them too.
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { jsonPart } from './answer';
import type { AiGateway } from '#core/ai/gateway';
import { QuotaExhaustedError } from '#core/ai/quota';
import { QualityShedError } from '#core/ai/shedder';
import { isDatabaseUnavailable } from '#core/db/errors';
import type { AspectVerdict, ClaimVerdict, Database, GenerationStatus } from '#core/db/schema';
import { qualityConfidence, retrievalSignal } from '#core/domain/confidence';
import { canTransition, guardedMove, undoMove } from '#core/domain/generation-status';
import type { RetrievalQuality } from '#core/domain/similarity';
import type { QualityState } from '#core/domain/vocabulary';
import { conflict, notFound, unavailable } from '#core/errors';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { claimLease, holdLease } from './lease';
import { citedChunk, neutralise, type EvidenceMarkers, type NonceSource } from './evidence-markers';
import { wordsOf } from '#core/embeddings/near-duplicates';
import { activeTemplate, fencedEvidence, renderTemplate, topicText } from './prompts';
import { isoTime, jsonColumn } from '#core/db/values';
import { assertGenerationCapacity } from '#core/ratelimit/generation-cap';
import { organizationAnalyses } from '#core/repositories/analyses';
import { QUALITY_FAILURE_MARKER } from '#manifest/runtime-names';
import { ifUsed } from '#core/if-used';

export const QUALITY_PROMPT_TYPES = { faithfulness: 'quality_faithfulness', coverage: 'quality_coverage' } as const;

export { QUALITY_FAILURE_MARKER };

export type QualityOutcome = 'verified' | 'failed' | 'shed' | 'skipped';

export interface QualityDeps {
  db: Kysely<Database>;
  gateway: Pick<AiGateway, 'converse'>;
  now?: () => Date;
  /** called with every lease renewal: keeps the message invisible while the check holds the analysis (worker.ts) */
  keepMessage?: () => Promise<void>;
  /** the labels of the evidence markers (evidence-markers.ts): random unless a test needs a stable prompt */
  markerNonce?: NonceSource;
}

// ---- reading a verdict (pure) -----------------------------------------------------------------

export const qualityVerdictSchema = /* @__PURE__ */ ifUsed(() =>
  z.looseObject({
    score: z.number().min(0).max(1),
    claims: z.array(z.looseObject({ statement: z.string(), supported: z.boolean(), citations: z.array(z.string()).optional() })).optional(),
    /** the coverage check's aspects (prompt version of migration 0020; earlier versions list them as claims) */
    aspects: z.array(z.looseObject({ aspect: z.string(), addressed: z.boolean(), citations: z.array(z.string()).optional() })).optional(),
    rationale: z.string().optional(),
  }),
);

export type QualityVerdict = z.infer<typeof qualityVerdictSchema>;

export class UnreadableVerdictError extends Error {
  override name = 'UnreadableVerdictError';
}

/** A quality answer read; UnreadableVerdictError when it is not JSON of that shape. */
export const readVerdict = (check: string, text: string): QualityVerdict => {
  let value: unknown;
  try {
    value = JSON.parse(jsonPart(text));
  } catch (error) {
    throw new UnreadableVerdictError(`${check} check answer is not JSON: ${(error as Error).message}`);
  }
  const parsed = qualityVerdictSchema.safeParse(value);
  if (!parsed.success) {
    throw new UnreadableVerdictError(
      `${check} check answer has the wrong shape: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
};

interface StoredAnswer {
  summary?: string;
  findings?: { statement: string; citations?: string[] }[];
}

/** A claim is matched to a part of the analysis that holds at least this share of its words. */
const CLAIM_MATCH_SHARE = 0.6;

/**
 * The part of the analysis a claim reviews: of the findings and the summary holding at least CLAIM_MATCH_SHARE of the
 * claim's words, the one holding the largest share, then the closest in words overall (Jaccard: the summary a claim
 * repeats word for word, rather than the finding the summary repeats), then the first finding.
 */
export const claimPart = (statement: string, analysis: StoredAnswer | null): Pick<ClaimVerdict, 'part' | 'finding_index'> => {
  const words = new Set(wordsOf(statement));
  const closeness = (text: string): [share: number, jaccard: number] => {
    const have = new Set(wordsOf(text));
    const common = [...words].filter((w) => have.has(w)).length;
    return words.size === 0 ? [0, 0] : [common / words.size, common / (words.size + have.size - common)];
  };
  const parts = [
    ...(analysis?.findings ?? []).map((f, index) => ({ at: { part: 'finding', finding_index: index } as const, text: f.statement })),
    { at: { part: 'summary', finding_index: null } as const, text: analysis?.summary ?? '' },
  ];
  let best: { at: Pick<ClaimVerdict, 'part' | 'finding_index'>; share: number; jaccard: number } | undefined;
  for (const { at, text } of parts) {
    const [share, jaccard] = closeness(text);
    if (share >= CLAIM_MATCH_SHARE && (!best || share > best.share || (share === best.share && jaccard > best.jaccard))) {
      best = { at, share, jaccard };
    }
  }
  return best?.at ?? { part: 'unmatched', finding_index: null };
};

/** The chunk ids a verdict's citations name among the markers issued for its call (any other citation is dropped). */
const citedChunks = (markers: EvidenceMarkers, citations: readonly string[] | undefined): string[] => [
  ...new Set((citations ?? []).flatMap((citation) => citedChunk(markers, citation) ?? [])),
];

/** The faithfulness verdict, claim by claim, as stored: chunk ids for the call's labels, each claim tied to its part of the analysis. */
const claimVerdicts = (verdict: QualityVerdict, markers: EvidenceMarkers, analysis: StoredAnswer | null): ClaimVerdict[] =>
  (verdict.claims ?? []).map((claim) => ({
    statement: claim.statement,
    supported: claim.supported,
    chunk_ids: citedChunks(markers, claim.citations),
    ...claimPart(claim.statement, analysis),
  }));

/**
 * The coverage verdict's aspects, as stored: its `aspects`, or, from a prompt version before migration 0020 (which
 * asked for the aspects as "claims", "supported" for covered), its claims read as aspects.
 */
export const aspectVerdicts = (verdict: QualityVerdict, markers: EvidenceMarkers): AspectVerdict[] =>
  (verdict.aspects ?? (verdict.claims ?? []).map((c) => ({ aspect: c.statement, addressed: c.supported, citations: c.citations }))).map(
    (a) => ({ aspect: a.aspect, addressed: a.addressed, chunk_ids: citedChunks(markers, a.citations) }),
  );

/** The analysis under review as the quality prompts' {{analysis}}, its citations as the labels issued for this call. */
export const renderAnalysis = (result: StoredAnswer | null, markers: EvidenceMarkers): string => {
  if (!result) return '';
  const findings = (result.findings ?? []).map((f, i) => {
    const labels = (f.citations ?? []).flatMap((id) => markers.labelOf.get(id) ?? []);
    return `${i + 1}. ${neutralise(f.statement)}${labels.length ? ` (citations: ${labels.join(', ')})` : ' (no citations)'}`;
  });
  return [`Summary: ${neutralise(result.summary ?? '')}`, '', 'Findings:', ...(findings.length ? findings : ['(none)'])].join('\n');
};

/** The placeholder values of one quality check call, with fresh markers (the quality worker and the evaluation CLI alike). */
export const qualityPromptValues = (
  input: {
    analysis: StoredAnswer | null;
    question?: string | null | undefined;
    topic?: { title: string; description: string } | undefined;
    evidence: readonly { id: string; text: string }[];
  },
  nonce?: NonceSource,
): { values: Record<string, string>; markers: EvidenceMarkers } => {
  const { evidence, markers } = fencedEvidence(input.evidence, nonce);
  return {
    values: {
      analysis: renderAnalysis(input.analysis, markers),
      question: neutralise(input.question ?? ''),
      topic: neutralise(topicText(input.topic)),
      evidence,
    },
    markers,
  };
};

/** A check's prompt, rendered: its system prompt and its user prompt. */
interface CheckPrompt {
  system: string;
  user: string;
}

/**
 * The start of the user prompt two calls can share through the prompt cache: none unless their system prompts are the
 * same (a cached prefix starts there), else their user prompts' common start, up to its last line break — as the
 * templates are written, the evidence and the analysis under review, before what each check asks.
 */
export const sharedPromptPrefix = (a: CheckPrompt, b: CheckPrompt): string => {
  if (a.system !== b.system) return '';
  let common = 0;
  while (common < a.user.length && a.user[common] === b.user[common]) common++;
  return a.user.slice(0, a.user.lastIndexOf('\n', common - 1) + 1);
};

/** The changes of status a check makes (each checked against the machine when this module loads). */
export const QUALITY_MOVES = {
  /** the manual route, from any status a check may start from */
  start: guardedMove('start_quality'),
  /** the quality worker, after generation */
  claim: guardedMove('start_quality', ['complete']),
  verified: guardedMove('quality_succeeded'),
  shed: guardedMove('quality_shed', ['checking']),
  failed: guardedMove('quality_failed'),
} as const;

// ---- starting a check (the manual route) ------------------------------------------------------

/**
 * Moves the caller's analysis into checking (404 when it is not theirs or does not exist, 409 when
 * it is not in a state a check can start from). Returns the status it came from, so a caller whose
 * enqueue fails can put it back with revertQualityStart.
 */
export const startQualityCheck = async (
  db: Kysely<Database>,
  analysisId: string,
  orgScope?: string,
): Promise<{ analysis_id: string; previous_status: GenerationStatus }> => {
  const row = await db
    .selectFrom('analyses as a')
    .innerJoin('investigations as i', 'i.id', 'a.investigation_id')
    .select(['a.id', 'a.generation_status', 'i.organization_id'])
    .where('a.id', '=', analysisId)
    .executeTakeFirst();
  if (!row || (orgScope !== undefined && row.organization_id !== orgScope)) throw notFound('The analysis');
  const explain = (status: GenerationStatus) =>
    conflict(
      status === 'checking'
        ? 'The quality checks of this analysis are already running; poll its quality status.'
        : `The quality checks cannot start while the analysis is ${status}; they run once it is complete.`,
      { generation_status: status },
    );
  if (!canTransition(row.generation_status, 'start_quality')) throw explain(row.generation_status);
  const { from, to } = guardedMove('start_quality', [row.generation_status]);
  const moved = await db
    .updateTable('analyses')
    .set({ generation_status: to, updated_at: new Date() })
    .where('id', '=', analysisId)
    .where('generation_status', 'in', from)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) {
    // it changed under us: report what it is now
    const now = await db.selectFrom('analyses').select('generation_status').where('id', '=', analysisId).executeTakeFirst();
    throw explain(now?.generation_status ?? row.generation_status);
  }
  return { analysis_id: analysisId, previous_status: row.generation_status };
};

/** Undoes startQualityCheck when the message could not be queued (only if nothing moved it since). */
export const revertQualityStart = async (db: Kysely<Database>, analysisId: string, previous: GenerationStatus): Promise<void> => {
  const { from, to } = undoMove(QUALITY_MOVES.start, previous);
  await db
    .updateTable('analyses')
    .set({ generation_status: to, updated_at: new Date() })
    .where('id', '=', analysisId)
    .where('generation_status', 'in', from)
    .execute();
};

/**
 * The manual start (POST …/quality-check): the analysis moves to checking, then its message is queued;
 * if the queue cannot take it, the status is put back and the caller is told nothing changed (503).
 */
export const requestQualityCheck = async (
  { db, send }: { db: Kysely<Database>; send: (message: { analysis_id: string }) => Promise<void> },
  analysisId: string,
  organizationId: string,
): Promise<void> => {
  // a manual check counts toward the organization's cap of AI work in flight, exactly (one transaction)
  const started = await db.transaction().execute(async (trx) => {
    await assertGenerationCapacity(trx, organizationId);
    return startQualityCheck(trx, analysisId, organizationId);
  });
  try {
    await send({ analysis_id: analysisId });
  } catch (error) {
    logger.error('quality check could not be queued; status put back', { analysisId, error: error as Error });
    await revertQualityStart(db, analysisId, started.previous_status);
    throw unavailable('The quality checks could not be started right now; nothing changed. Please try again shortly.');
  }
};

// ---- running a check (the quality worker) -----------------------------------------------------

/**
 * Claims the check with a lease (lease.ts): complete → checking, or a checking row no worker holds (a
 * manual start not picked up yet, or a crashed worker's). A live lease throws LeaseHeldError: the
 * message comes back later instead of running the checks twice. Anything else: not ours to check.
 */
const claim = async (db: Kysely<Database>, analysisId: string, now: Date): Promise<boolean> =>
  (await claimLease(db, analysisId, QUALITY_MOVES.claim, ['id'], now)) !== undefined;

const includedEvidence = async (db: Kysely<Database>, analysisId: string): Promise<{ id: string; text: string }[]> =>
  db
    .selectFrom('retrieval_records as r')
    .innerJoin('text_chunks as c', 'c.id', 'r.chunk_id')
    .select(['c.id', 'c.text'])
    .where('r.analysis_id', '=', analysisId)
    .where('r.included', '=', true)
    .orderBy('r.rank')
    .execute();

const reasonOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Runs the faithfulness and coverage checks of one analysis and stores the outcome. Never throws for
 * a failed check (the analysis stays usable); throws QuotaExhaustedError when the check must wait for
 * its organization's AI share (the message comes back then), and otherwise only when even the failure
 * cannot be recorded (the database is gone), so the message is retried and, in the end, the watchdog
 * releases the row.
 */
export const runQualityCheck = async (
  { db, gateway, now = () => new Date(), keepMessage, markerNonce }: QualityDeps,
  analysisId: string,
): Promise<QualityOutcome> => {
  if (!(await claim(db, analysisId, now()))) return 'skipped';
  const release = holdLease(db, analysisId, QUALITY_MOVES.claim.to, keepMessage);
  try {
    const row = await db
      .selectFrom('analyses as a')
      .innerJoin('investigations as i', 'i.id', 'a.investigation_id')
      .select(['a.result', 'a.question_id', 'a.topic_id', 'a.retrieval_quality', 'a.requested_by', 'i.organization_id'])
      .where('a.id', '=', analysisId)
      .executeTakeFirstOrThrow();
    const [question, topic, faithfulnessTemplate, coverageTemplate, evidence] = await Promise.all([
      row.question_id ? db.selectFrom('questions').select('text').where('id', '=', row.question_id).executeTakeFirst() : undefined,
      row.topic_id ? db.selectFrom('topics').select(['title', 'description']).where('id', '=', row.topic_id).executeTakeFirst() : undefined,
      activeTemplate(db, QUALITY_PROMPT_TYPES.faithfulness),
      activeTemplate(db, QUALITY_PROMPT_TYPES.coverage),
      includedEvidence(db, analysisId),
    ]);
    const review = { analysis: jsonColumn<StoredAnswer>(row.result), question: question?.text, topic, evidence };
    const context = { analysisId, userId: row.requested_by ?? undefined, organizationId: row.organization_id };
    // one set of markers for both checks, so that their prompts can share the evidence as a cached prefix
    const { values, markers } = qualityPromptValues(review, markerNonce);
    const prompts = ([faithfulnessTemplate, coverageTemplate] as const).map((template) => ({
      system: renderTemplate(template.system_prompt, values),
      user: renderTemplate(template.user_prompt_template, values),
    })) as [CheckPrompt, CheckPrompt];
    const cachedPrefix = sharedPromptPrefix(...prompts);
    // sequential: the second call is not made when the first is shed or fails, and it reads the prefix the first cached
    const checked: { verdict: QualityVerdict; markers: EvidenceMarkers }[] = [];
    for (const [check, prompt] of [
      ['faithfulness', prompts[0]],
      ['coverage', prompts[1]],
    ] as const) {
      const answer = await gateway.converse({
        purpose: 'quality',
        system: prompt.system,
        cachedPrefix,
        prompt: prompt.user.slice(cachedPrefix.length),
        ...context,
        // the coverage check follows a spent faithfulness check, which a retry for a full quota would make again
        followUp: checked.length > 0,
      });
      checked.push({ verdict: readVerdict(check, answer.text), markers });
    }
    const [faithfulnessCheck, coverageCheck] = checked as [(typeof checked)[number], (typeof checked)[number]];
    const faithfulness = faithfulnessCheck.verdict.score;
    const coverage = coverageCheck.verdict.score;
    const confidence = qualityConfidence({
      faithfulness,
      coverage,
      retrievalSimilarity: retrievalSignal(jsonColumn<RetrievalQuality>(row.retrieval_quality)),
    });
    const written = await db
      .updateTable('analyses')
      .set({
        generation_status: QUALITY_MOVES.verified.to,
        faithfulness_score: faithfulness,
        coverage_score: coverage,
        quality_confidence: confidence.level,
        quality_claims: JSON.stringify(claimVerdicts(faithfulnessCheck.verdict, faithfulnessCheck.markers, review.analysis)),
        coverage_aspects: JSON.stringify(aspectVerdicts(coverageCheck.verdict, coverageCheck.markers)),
        quality_error: null,
        quality_checked_at: now(),
        claimed_until: null,
        updated_at: now(),
      })
      .where('id', '=', analysisId)
      .where('generation_status', 'in', QUALITY_MOVES.verified.from)
      .executeTakeFirst();
    logger.info('quality checks verified', {
      analysisId,
      faithfulness,
      coverage,
      confidence: confidence.level,
      written: Number(written.numUpdatedRows) > 0,
    });
    return 'verified';
  } catch (error) {
    if (error instanceof QuotaExhaustedError) {
      // the organization's AI share is in use: the check waits its turn, still checking (no lease), and
      // its message comes back at retryAt (worker.ts); nothing is recorded as a failure
      await db
        .updateTable('analyses')
        .set({ claimed_until: null, ai_wait_until: error.retryAt, updated_at: now() })
        .where('id', '=', analysisId)
        .where('generation_status', '=', 'checking')
        .execute();
      throw error;
    }
    if (error instanceof QualityShedError) {
      // `[AI:Shed]` was logged by the gateway; the analysis ships without a quality score
      await db
        .updateTable('analyses')
        .set({ generation_status: QUALITY_MOVES.shed.to, quality_error: error.message, claimed_until: null, updated_at: now() })
        .where('id', '=', analysisId)
        .where('generation_status', 'in', QUALITY_MOVES.shed.from)
        .execute();
      return 'shed';
    }
    if (isDatabaseUnavailable(error)) {
      // the database failed, not the check: recorded once the database answered again, a blip became a
      // [QUALITY_CHECK_FAILURE]; thrown, the message comes back and the check runs again (worker.ts). The
      // lease is let go if the database allows, so the retry need not wait for it to run out.
      await db
        .updateTable('analyses')
        .set({ claimed_until: null })
        .where('id', '=', analysisId)
        .where('generation_status', '=', 'checking')
        .execute()
        .catch(() => undefined);
      throw error;
    }
    const reason = reasonOf(error);
    logger.error(QUALITY_FAILURE_MARKER, { analysisId, reason });
    countEvent('qualityCheckFailures');
    await db
      .updateTable('analyses')
      .set({ generation_status: QUALITY_MOVES.failed.to, quality_error: reason.slice(0, 2000), claimed_until: null, updated_at: now() })
      .where('id', '=', analysisId)
      .where('generation_status', 'in', QUALITY_MOVES.failed.from)
      .execute();
    return 'failed';
  } finally {
    release();
  }
};

// ---- polling ----------------------------------------------------------------------------------

/** Pure: the quality state shown to clients for a status and the last check's error. */
export const qualityStateOf = (status: GenerationStatus, qualityError: string | null): QualityState => {
  if (status === 'checking') return 'checking';
  if (status === 'verified') return 'verified';
  if (status === 'quality_unavailable') return 'unavailable';
  if (status === 'complete' && qualityError) return 'failed';
  return 'not_started';
};

/** The quality progress of the caller's analysis, or undefined when it is not theirs or missing. */
export const qualityStatus = async (db: Kysely<Database>, organizationId: string, analysisId: string) => {
  const row = await organizationAnalyses(db, organizationId)
    .select([
      'a.id',
      'a.generation_status',
      'a.faithfulness_score',
      'a.coverage_score',
      'a.quality_confidence',
      'a.quality_error',
      'a.quality_checked_at',
      'a.updated_at',
      'a.ai_wait_until',
    ])
    .where('a.id', '=', analysisId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    analysis_id: row.id,
    generation_status: row.generation_status,
    quality_state: qualityStateOf(row.generation_status, row.quality_error),
    faithfulness_score: row.faithfulness_score === null ? null : Number(row.faithfulness_score),
    coverage_score: row.coverage_score === null ? null : Number(row.coverage_score),
    quality_confidence: row.quality_confidence,
    quality_error: row.quality_error,
    quality_checked_at: isoTime(row.quality_checked_at),
    // the row's last change is the move into checking (nothing else writes it while checking)
    checking_since: row.generation_status === 'checking' ? isoTime(row.updated_at) : null,
    ai_wait_until: isoTime(row.ai_wait_until),
  };
};
