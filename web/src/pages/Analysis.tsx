/**
 * One analysis: progress while it is generated (the spec's polling rule), the answer with inline citations,
 * quality and coverage, the retrieval panel on demand, the two engagement gates (expanding the detail, then
 * opening a cited passage), the judgment that they unlock, regeneration, editing and the feedback history.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { client, messageOf, unwrap } from '../api';
import { navigate, onLink } from '../router';
import type { components } from '../../api/schema';
import { Badge, Busy, type Loaded, Loading, plural, Problem, percent, Table, useAction, useLoad, when } from '../components/ui';
import { ANALYSIS_TYPES, analysisSubject } from './Investigation';
import { openFile } from '../components/files';
import { inProgress, pollStep, POLLING } from '../poll';

type Analysis = components['schemas']['AnalysisDetail'];
type Cited = components['schemas']['AnalysisRetrievalChunkResponse'];
type FeedbackRequest = components['schemas']['FeedbackRequest'];
type RegenerateReason = Extract<FeedbackRequest, { action: 'regenerate' }>['reason'];
type Retrieval = components['schemas']['AnalysisRetrievalResponse'];
type FeedbackAction = components['schemas']['FeedbackRecord']['action'];

const STATUS_TEXT: Record<string, string> = {
  queued: 'Queued: the analysis starts shortly.',
  generating: 'Generating: the AI is reading the evidence.',
  checking: 'Checking quality: the answer is ready, its quality scores follow.',
};

/** What the analysis is doing now, in words; a queued one may be waiting for its evidence to be processed. */
const statusText = (analysis: Analysis): string => {
  const waiting = analysis.waiting_for_evidence;
  if (analysis.generation_status === 'queued' && waiting)
    return `Waiting for the evidence: ${waiting.ready} of ${waiting.total} items are ready. The analysis starts when they all are, or within about two minutes with what is ready then.`;
  return STATUS_TEXT[analysis.generation_status] ?? 'Working…';
};

/** A message as one sentence: it ends with one full stop, whatever the source ended it with. */
const sentence = (text: string): string => `${text.trim().replace(/[.\s]+$/, '')}.`;

/** Each feedback action as the history says it, in words a person would use. */
const ACTION_WORDS: Record<FeedbackAction, string> = {
  agree: 'Agreed',
  disagree: 'Disagreed',
  unsure: 'Unsure: marked as needing revision',
  regenerate: 'Asked for a regeneration',
  edit: 'Edited the answer',
  view: 'Viewed',
};

/** The judgment buttons and the stored status each records. */
const JUDGMENTS = [
  ['Agree', 'accepted'],
  ['Disagree', 'rejected'],
  ['Unsure', 'needs_revision'],
] as const;

const CONFIDENCE_COLOR = { established: 'green', probable: 'blue', possible: 'amber', insufficient: 'gray' } as const;

const REGENERATE_REASONS: Record<RegenerateReason, string> = {
  inaccurate_conclusions: 'Inaccurate conclusions',
  missing_evidence: 'Missing evidence',
  too_vague: 'Too vague',
  wrong_focus: 'Wrong focus',
  other: 'Other',
};

/** Polls the analysis by the spec's rule while it is in progress; a timeout leaves it in the background, said so. */
const usePolledAnalysis = (id: string) => {
  const [analysis, setAnalysis] = useState<Analysis>();
  const [problem, setProblem] = useState<string>();
  const [timedOut, setTimedOut] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const started = Date.now();
    setTimedOut(false);
    const check = async () => {
      try {
        const next = await unwrap(client.GET('/api/analysis/{analysis_id}', { params: { path: { analysis_id: id } } }));
        if (!current) return;
        setAnalysis(next);
        setProblem(undefined);
        const step = pollStep(next.generation_status, Date.now() - started);
        if (step.next === 'wait') timer = setTimeout(check, step.inMs);
        if (step.next === 'timeout') setTimedOut(true);
      } catch (error) {
        if (!current) return;
        setProblem(messageOf(error));
        if (Date.now() - started + POLLING.intervalMs <= POLLING.maxMs) timer = setTimeout(check, POLLING.intervalMs);
      }
    };
    void check();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, round]);
  return { analysis, setAnalysis, problem, timedOut, refresh: () => setRound((r) => r + 1) };
};

/** A check that did not finish: why (the quality status's error), and the way to run it again. */
const QualityUnfinished = ({ analysis, onStarted }: { analysis: Analysis; onStarted: () => void }) => {
  const id = analysis.analysis_id;
  const status = useLoad(
    () => unwrap(client.GET('/api/analysis/{analysis_id}/quality-status', { params: { path: { analysis_id: id } } })),
    [id, analysis.generation_status],
  );
  const { working, problem, run } = useAction();
  const again = () =>
    run(async () => {
      await unwrap(client.POST('/api/analysis/{analysis_id}/quality-check', { params: { path: { analysis_id: id } } }));
      onStarted();
    });
  if (status.data?.quality_state !== 'unavailable' && status.data?.quality_state !== 'failed') return null;
  return (
    <div class="note" role="note">
      <p>
        {status.data.quality_state === 'unavailable'
          ? 'The quality checks were put off while the AI service was busy'
          : 'The quality checks did not finish'}
        {status.data.quality_error ? `: ${sentence(status.data.quality_error)}` : '.'}
        {analysis.faithfulness_score !== null && ' The scores shown are from the last check that finished.'}
      </p>
      <button type="button" class="secondary" disabled={working} onClick={again}>
        Run the quality checks again
      </button>
      <Problem message={problem} />
    </div>
  );
};

/** What the question or topic asks, aspect by aspect, as the coverage check judged the answer. */
const Aspects = ({ aspects }: { aspects: NonNullable<Analysis['coverage_aspects']> }) =>
  aspects.length === 0 ? null : (
    <div class="aspects">
      <h3 id="aspects-heading">What it asks, aspect by aspect</h3>
      <ul aria-labelledby="aspects-heading">
        {aspects.map((a) => (
          <li key={a.aspect} class={a.addressed ? 'addressed' : 'missing'}>
            <span aria-hidden="true">{a.addressed ? '✓ ' : '✗ '}</span>
            {a.aspect}: <strong>{a.addressed ? 'addressed' : 'missing'}</strong>
          </li>
        ))}
      </ul>
    </div>
  );

const Quality = ({ analysis }: { analysis: Analysis }) => (
  <>
    <dl class="figures">
      <div>
        <dt>Confidence</dt>
        <dd>
          {analysis.quality_confidence ? (
            <Badge color={CONFIDENCE_COLOR[analysis.quality_confidence]}>{analysis.quality_confidence}</Badge>
          ) : analysis.generation_status === 'quality_unavailable' ? (
            'not available'
          ) : (
            'not checked yet'
          )}
        </dd>
      </div>
      <div>
        <dt>Faithfulness</dt>
        <dd>{analysis.faithfulness_score === null ? 'not checked' : percent(analysis.faithfulness_score)}</dd>
      </div>
      <div>
        <dt>Coverage</dt>
        <dd>{analysis.coverage_score === null ? 'not checked' : percent(analysis.coverage_score)}</dd>
      </div>
      <div>
        <dt>Evidence considered</dt>
        <dd>
          {analysis.evidence_coverage
            ? `${analysis.evidence_coverage.considered} of ${analysis.evidence_coverage.total} items (${percent(
                analysis.evidence_coverage.total ? analysis.evidence_coverage.considered / analysis.evidence_coverage.total : 0,
              )})`
            : '—'}
        </dd>
      </div>
    </dl>
    {analysis.confidence_reason && <p class="reason">How the confidence was reached: {analysis.confidence_reason}</p>}
    {analysis.quality_note && <p class="note">{analysis.quality_note}</p>}
    {analysis.coverage_aspects && <Aspects aspects={analysis.coverage_aspects} />}
  </>
);

/** Saves the analysis as a record (PDF or JSON) under the name the service gives it. */
const saveExport = async (id: string, format: 'pdf' | 'json') => {
  const call = client.GET('/api/analysis/{analysis_id}/export', {
    params: { path: { analysis_id: id }, query: { format } },
    parseAs: 'blob',
  });
  const file = (await unwrap(call)) as Blob;
  const named = /filename="([^"]+)"/.exec((await call).response.headers.get('content-disposition') ?? '')?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = named ?? `analysis-${id}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
};

/** The most of the document a citation shows around its passage: this many chunks on each side. */
const MOST_AROUND = 10;

/** A cited passage inside its document: the passage marked among the text around it, more of the document on demand, the file. */
const Passage = ({ cited, onMore, onClose }: { cited: Cited; onMore: () => Promise<void>; onClose: () => void }) => {
  const { chunk, passage } = cited;
  const { working, problem, run } = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [chunk.chunk_id]);
  const file = chunk.attachment_id
    ? { attachment_id: chunk.attachment_id }
    : chunk.background_document_id
      ? { background_document_id: chunk.background_document_id }
      : undefined;
  const openOriginal = () => run(() => openFile(file!, chunk.page ?? undefined));
  return (
    <aside class="side-panel" aria-labelledby="passage-heading">
      <h2 id="passage-heading" tabIndex={-1} ref={heading}>
        {chunk.source_title}
      </h2>
      <p class="meta">
        {chunk.page !== null && `Page ${chunk.page} · `}Passage {chunk.chunk_index + 1} ·{' '}
        <Badge color={chunk.band.color}>{chunk.band.label}</Badge> {chunk.band.percent}% similar
      </p>
      <div class="document" aria-label={`The passage in ${chunk.source_title}`} role="document">
        {passage.more_before && <p class="meta">…</p>}
        <p>
          {passage.text.slice(0, passage.chunk_start)}
          <mark>{passage.text.slice(passage.chunk_start, passage.chunk_end)}</mark>
          {passage.text.slice(passage.chunk_end)}
        </p>
        {passage.more_after && <p class="meta">…</p>}
      </div>
      <div class="actions">
        {(passage.more_before || passage.more_after) && (
          <button type="button" class="secondary" disabled={working} onClick={() => run(onMore)}>
            Show more of the document
          </button>
        )}
        {file && (
          <button type="button" class="link" onClick={openOriginal}>
            Open the original {chunk.attachment_file_name ?? 'document'}
            {chunk.page !== null && ` at page ${chunk.page}`}
          </button>
        )}
      </div>
      <Problem message={problem} />
      <div class="actions">
        <button type="button" class="secondary" onClick={onClose}>
          Close the passage
        </button>
      </div>
    </aside>
  );
};

/** The rule the AI's passages were chosen by, and what it chose, in one sentence. */
const ruleSentence = ({ summary, low_relevance }: Retrieval): string => {
  const counts = `The search found ${plural(summary.total, 'passage')}: ${summary.included} given to the AI, ${summary.excluded} left out.`;
  const { rule } = summary;
  if (!rule) return counts;
  const floor = `${Math.round(rule.min_similarity * 100)}%`;
  return low_relevance
    ? `${counts} None reached the ${floor} similarity threshold, so the ${rule.low_relevance_included} closest were given instead.`
    : `${counts} The AI is given the ${rule.max_included} closest passages at or above ${floor} similarity.`;
};

/** A similarity with one decimal: two passages either side of the threshold never show the same figure. */
const similarityText = (similarity: number) => `${(Math.floor(similarity * 1000) / 10).toFixed(1)}%`;

const RetrievalPanel = ({ retrieval }: { retrieval: Loaded<Retrieval | undefined> }) => {
  return (
    <Loading state={retrieval} label="the retrieval">
      {(found) =>
        found && (
          <>
            <p class="rule">{ruleSentence(found)}</p>
            <Table
              label="The passages the search found, nearest first"
              caption="The passages the search found, nearest first"
              columns={['Rank', 'Source', 'Similarity', 'Used']}
            >
              {found.chunks.map((c) => (
                <tr key={c.rank}>
                  <td>{c.rank}</td>
                  <td>
                    {c.source_title}
                    {c.source_deleted && ' (deleted since)'}
                  </td>
                  <td>
                    <Badge color={c.band.color}>{c.band.label}</Badge> {similarityText(c.similarity)}
                  </td>
                  <td>{c.included ? 'Included' : `Excluded: ${c.exclusion_reason}`}</td>
                </tr>
              ))}
            </Table>
          </>
        )
      }
    </Loading>
  );
};

const History = ({ id, round }: { id: string; round: number }) => {
  const history = useLoad(
    () => unwrap(client.GET('/api/analysis/{analysis_id}/feedback', { params: { path: { analysis_id: id }, query: { limit: 50 } } })),
    [id, round],
  );
  return (
    <Loading state={history} label="the feedback history">
      {({ feedback }) =>
        feedback.length === 0 ? (
          <p>No feedback yet.</p>
        ) : (
          <ol class="rows">
            {feedback.map((f) => (
              <li key={f.feedback_id}>
                <strong>{ACTION_WORDS[f.action]}</strong>
                <span class="meta">
                  {f.actor?.display_name ?? 'someone'} · {when(f.created_at)}
                </span>
                {f.reason && <span>Reason: {REGENERATE_REASONS[f.reason as RegenerateReason] ?? f.reason}</span>}
                {f.direction && <span>Direction: {f.direction}</span>}
                {f.content && <blockquote class="edited">{f.content}</blockquote>}
              </li>
            ))}
          </ol>
        )
      }
    </Loading>
  );
};

type Form = 'disagree' | 'unsure' | 'regenerate' | 'edit' | undefined;

export const AnalysisPage = ({ id }: { id: string }) => {
  const { analysis, setAnalysis, problem: loadProblem, timedOut, refresh } = usePolledAnalysis(id);
  const [passage, setPassage] = useState<Cited & { around: number }>();
  const [showRetrieval, setShowRetrieval] = useState(false);
  const [form, setForm] = useState<Form>();
  const [reason, setReason] = useState('');
  const [regenerateReason, setRegenerateReason] = useState<RegenerateReason>('missing_evidence');
  const [direction, setDirection] = useState('');
  const [edited, setEdited] = useState('');
  const { problem, run } = useAction();
  const [historyRound, setHistoryRound] = useState(0);
  // what was recorded last, said beside the buttons (a judgment, or the note that Unsure recorded needs revision)
  const [recorded, setRecorded] = useState<string>();
  // the detail's review being recorded (Gate A): a citation opened before it is answered waits for it, or Gate B
  // would be skipped (the click's closure still saw the detail unreviewed) and the judgment buttons stay disabled
  const detailReview = useRef<{ id: string; recorded: Promise<boolean> } | undefined>(undefined);
  const investigationId = analysis?.investigation_id;
  const investigation = useLoad(
    async () =>
      investigationId
        ? unwrap(client.GET('/api/investigations/{investigation_id}', { params: { path: { investigation_id: investigationId } } }))
        : undefined,
    [investigationId],
  );

  // the passages the search found: the retrieval panel's table, and each citation's source and page
  const generatedAt = analysis?.generated_at;
  const retrieval = useLoad(
    async () =>
      generatedAt ? unwrap(client.GET('/api/analysis/{analysis_id}/retrieval', { params: { path: { analysis_id: id } } })) : undefined,
    [id, generatedAt],
  );
  const sourceOf = new Map((retrieval.data?.chunks ?? []).map((c) => [c.chunk_id, c]));

  if (!analysis) return <main>{loadProblem ? <Problem message={loadProblem} /> : <Busy label="Loading the analysis…" />}</main>;
  const result = analysis.result;
  const gateA = analysis.detail_reviewed_at !== null;
  const gateB = analysis.citation_checked_at !== null;

  const engage = async (step: 'detail_reviewed' | 'citation_checked') => {
    const gates = await unwrap(
      client.POST('/api/analysis/{analysis_id}/engagement', { params: { path: { analysis_id: id } }, body: { step } }),
    );
    setAnalysis((current) => current && { ...current, ...gates });
  };
  const guarded = (action: () => Promise<void>) => () => run(action);
  const reviewDetail = async () => {
    if (detailReview.current?.id !== id) {
      const recording = engage('detail_reviewed');
      // a failed recording is asked again on the next opening
      const forget = () => {
        detailReview.current = undefined;
        return false;
      };
      detailReview.current = { id, recorded: recording.then(() => true, forget) };
      await recording;
    }
  };
  const openDetail = (event: Event) => {
    if ((event.currentTarget as HTMLDetailsElement).open && !gateA) void guarded(reviewDetail)();
  };
  const citedPassage = async (chunkId: string, around: number) => ({
    ...(await unwrap(
      client.GET('/api/analysis/{analysis_id}/retrieval/{chunk_id}', {
        params: { path: { analysis_id: id, chunk_id: chunkId }, query: { around } },
      }),
    )),
    around,
  });
  const moreOfDocument = async () => {
    if (passage) setPassage(await citedPassage(passage.chunk.chunk_id, Math.min(MOST_AROUND, passage.around + 3)));
  };
  const openCitation = (chunkId: string) =>
    guarded(async () => {
      setPassage(await citedPassage(chunkId, 1));
      const reviewed = gateA || (detailReview.current?.id === id && (await detailReview.current.recorded));
      if (reviewed && !gateB) await engage('citation_checked');
    });
  const send = (body: FeedbackRequest) =>
    guarded(async () => {
      const answer = await unwrap(client.POST('/api/analysis/{analysis_id}/feedback', { params: { path: { analysis_id: id } }, body }));
      setHistoryRound((r) => r + 1);
      if (answer.regenerated_analysis) {
        navigate(`/analyses/${answer.regenerated_analysis.analysis_id}`);
        return;
      }
      setAnalysis({ ...analysis, ...answer.analysis });
      setRecorded(
        body.action === 'unsure'
          ? 'Recorded: Unsure, so the analysis is marked as needing revision. A regeneration is prepared below; send it, or leave it.'
          : undefined,
      );
      if (answer.regeneration_draft) {
        // Unsure: the regeneration form, pre-filled from what would help
        setRegenerateReason(answer.regeneration_draft.reason);
        setDirection(answer.regeneration_draft.direction);
        setForm('regenerate');
        return;
      }
      setForm(undefined);
      if (body.action === 'edit') refresh();
    });
  /** A failed analysis has no answer to give feedback on: a new analysis of the same selection instead. */
  const tryAgain = guarded(async () => {
    const { investigation_id, analysis_type, question_id, topic_id } = analysis;
    const created = await unwrap(
      client.POST('/api/analysis', {
        body: { investigation_id, analysis_type, ...(question_id && { question_id }), ...(topic_id && { topic_id }) },
      }),
    );
    navigate(`/analyses/${created.analysis_id}`);
  });
  const summaryUnsupported = (analysis.claims ?? []).filter((c) => c.part === 'summary' && !c.supported);
  const current = JUDGMENTS.find(([, status]) => status === analysis.feedback_status)?.[0];
  const aiText = result ? [result.summary, ...result.findings.map((f) => `- ${f.statement}`)].join('\n') : '';

  return (
    <main class={passage ? 'with-side' : undefined}>
      <div>
        <p class="crumbs">
          <a href={`/investigations/${analysis.investigation_id}`} onClick={onLink}>
            Back to the investigation
          </a>
        </p>
        <h1>
          {analysisSubject(analysis)}{' '}
          {analysis.feedback_badge && <Badge color={analysis.feedback_badge.color}>{analysis.feedback_badge.label}</Badge>}
        </h1>
        <p class="meta">
          {ANALYSIS_TYPES[analysis.analysis_type]}
          {investigation.data && ` in ${investigation.data.title}`} · requested {when(analysis.created_at)}
          {analysis.prompt_version !== null && ` · prompt version ${analysis.prompt_version}`}
          {analysis.regenerated_from && (
            <>
              {' · '}
              <a href={`/analyses/${analysis.regenerated_from}`} onClick={onLink}>
                regenerated from an earlier analysis
              </a>
            </>
          )}
        </p>
        {inProgress(analysis.generation_status) && !timedOut && <Busy label={statusText(analysis)} />}
        {timedOut && (
          <p class="problem" role="alert">
            This analysis is taking longer than 5 minutes. It goes on in the background: come back later, or{' '}
            <button type="button" class="link" onClick={refresh}>
              check again now
            </button>
            .
          </p>
        )}
        {analysis.generation_status === 'failed' && (
          <p class="problem" role="alert">
            The analysis failed: {sentence(analysis.error_message ?? 'no reason was given')} Try it again below, or start a different one
            from the investigation.
          </p>
        )}
        <Problem message={loadProblem} />
        {!result && analysis.generation_status === 'failed' && (
          <section aria-labelledby="retry-heading" class="panel">
            <h2 id="retry-heading">Try again</h2>
            <p>
              A new analysis of the same {analysis.question_id ? 'question' : analysis.topic_id ? 'topic' : 'kind'}, from the evidence as it
              is now.
            </p>
            <button type="button" onClick={tryAgain}>
              Try again
            </button>
            <Problem message={problem} />
          </section>
        )}
        {result && (
          <>
            <section aria-labelledby="answer-heading">
              <h2 id="answer-heading">Answer</h2>
              {analysis.edit && (
                <div class="edited-version">
                  <p class="meta">
                    The investigator’s version, edited by {analysis.edit.edited_by?.display_name ?? 'someone'} on{' '}
                    {when(analysis.edit.edited_at)}. The AI’s answer and its quality scores follow it; they describe the AI’s text, not this
                    one.
                  </p>
                  <p>{analysis.edit.content}</p>
                </div>
              )}
              <div class="ai-version">
                {analysis.edit && <h3>The AI’s answer, as checked</h3>}
                {result.standin && <p class="note">This answer comes from the local stand-in model, not from Bedrock.</p>}
                {analysis.low_relevance && (
                  <p class="note" role="note">
                    No passage was a close match for this analysis; it was written from the nearest passages available and may be weak.
                  </p>
                )}
                <p class={summaryUnsupported.length > 0 ? 'unsupported' : undefined}>
                  {summaryUnsupported.length > 0 ? <mark>{result.summary}</mark> : result.summary}
                </p>
                {summaryUnsupported.length > 0 && (
                  <p class="note">
                    The check found {plural(summaryUnsupported.length, 'claim')} of the summary not supported by the evidence:{' '}
                    {summaryUnsupported.map((c) => `“${c.statement}”`).join('; ')}
                  </p>
                )}
                <Quality analysis={analysis} />
                <QualityUnfinished analysis={analysis} onStarted={refresh} />
              </div>
            </section>
            <details class="panel" onToggle={openDetail}>
              <summary>Detail: findings with their evidence {gateA ? '(reviewed)' : ''}</summary>
              <ol class="findings">
                {result.findings.map((finding, i) => {
                  const verdicts = (analysis.claims ?? []).filter((c) => c.part === 'finding' && c.finding_index === i);
                  const unsupported = verdicts.some((c) => !c.supported);
                  return (
                    <li key={i} class={unsupported ? 'unsupported' : undefined}>
                      {unsupported ? <mark>{finding.statement}</mark> : finding.statement}{' '}
                      {finding.citations.map((chunkId, n) => {
                        const source = sourceOf.get(chunkId);
                        const where = source ? `${source.source_title}${source.page === null ? '' : `, page ${source.page}`}` : undefined;
                        return (
                          <button key={chunkId} type="button" class="citation" title={where} onClick={openCitation(chunkId)}>
                            [{n + 1}
                            {source?.page != null && `, p. ${source.page}`}]
                            <span class="visually-hidden">
                              {' '}
                              open cited passage {n + 1} of finding {i + 1}
                              {where && ` (${where})`}
                            </span>
                          </button>
                        );
                      })}
                      {verdicts.length > 0 && (
                        <ul class="verdicts">
                          {verdicts.map((c) => (
                            <li key={c.statement} class={c.supported ? 'supported' : 'unsupported'}>
                              {c.supported
                                ? `Supported by ${plural(c.chunk_ids.length, 'passage')}`
                                : 'Not supported by the evidence the AI was given'}
                              : “{c.statement}”
                            </li>
                          ))}
                        </ul>
                      )}
                    </li>
                  );
                })}
              </ol>
              {result.evidence_gaps.length > 0 && (
                <>
                  <h3>Evidence gaps</h3>
                  <ul>
                    {result.evidence_gaps.map((gap) => (
                      <li key={gap}>{gap}</li>
                    ))}
                  </ul>
                </>
              )}
              {analysis.validation_status && analysis.validation_status !== 'valid' && (
                <p class="note">
                  {analysis.validation_status === 'citations_removed'
                    ? 'Some citations did not point at passages the AI was given and were removed.'
                    : 'Some findings cite no passage.'}
                </p>
              )}
            </details>
            <section aria-labelledby="judgment-heading" class="panel">
              <h2 id="judgment-heading">Your judgment</h2>
              <ol class="gates">
                <li class={gateA ? 'done' : undefined}>{gateA ? '✓ Detail reviewed' : 'Expand the detail above'}</li>
                <li class={gateB ? 'done' : undefined}>{gateB ? '✓ A citation checked' : 'Open at least one cited passage'}</li>
              </ol>
              {!analysis.judgment_enabled && <p class="meta">Agree, Disagree and Unsure open once both steps are done.</p>}
              <p class="current-judgment">
                {current
                  ? `Current judgment: ${current}. Choose another to replace it; the history below keeps every one.`
                  : 'No judgment recorded yet.'}
              </p>
              {recorded && <p class="note">{recorded}</p>}
              <div class="actions">
                <button
                  type="button"
                  aria-pressed={current === 'Agree'}
                  disabled={!analysis.judgment_enabled}
                  onClick={send({ action: 'agree' })}
                >
                  Agree
                </button>
                <button
                  type="button"
                  aria-pressed={current === 'Disagree'}
                  disabled={!analysis.judgment_enabled}
                  onClick={() => setForm('disagree')}
                >
                  Disagree
                </button>
                <button
                  type="button"
                  aria-pressed={current === 'Unsure'}
                  disabled={!analysis.judgment_enabled}
                  onClick={() => setForm('unsure')}
                >
                  Unsure
                </button>
                <button type="button" class="secondary" onClick={() => setForm('regenerate')}>
                  Regenerate
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setEdited(analysis.edit?.content ?? aiText);
                    setForm('edit');
                  }}
                >
                  Edit
                </button>
              </div>
              {form === 'disagree' && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void send({ action: 'disagree', reason })();
                  }}
                >
                  <label>
                    Why do you disagree?
                    <textarea required value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
                  </label>
                  <button type="submit">Record disagreement</button>
                </form>
              )}
              {form === 'unsure' && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void send({ action: 'unsure', direction })();
                  }}
                >
                  <label>
                    What would help you decide?
                    <textarea value={direction} onInput={(e) => setDirection(e.currentTarget.value)} />
                  </label>
                  <button type="submit">Record and prepare a regeneration</button>
                </form>
              )}
              {form === 'regenerate' && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void send({ action: 'regenerate', reason: regenerateReason, ...(direction && { direction }) })();
                  }}
                >
                  <label for="regenerate-reason">Reason</label>
                  <select
                    id="regenerate-reason"
                    value={regenerateReason}
                    onChange={(e) => setRegenerateReason(e.currentTarget.value as RegenerateReason)}
                  >
                    {Object.entries(REGENERATE_REASONS).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                  <label>
                    Direction for the new analysis
                    <textarea value={direction} onInput={(e) => setDirection(e.currentTarget.value)} />
                  </label>
                  <button type="submit">Regenerate</button>
                </form>
              )}
              {form === 'edit' && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void send({ action: 'edit', content: edited })();
                  }}
                >
                  <div class="side-by-side">
                    <div>
                      <h3 id="ai-text">The AI's text</h3>
                      <pre aria-labelledby="ai-text">{aiText}</pre>
                    </div>
                    <label>
                      Your version
                      <textarea rows={12} required value={edited} onInput={(e) => setEdited(e.currentTarget.value)} />
                    </label>
                  </div>
                  <button type="submit">Save the edit</button>
                </form>
              )}
              <Problem message={problem} />
            </section>
            <section aria-labelledby="retrieval-heading" class="panel">
              <h2 id="retrieval-heading">Retrieval</h2>
              {showRetrieval ? (
                <RetrievalPanel retrieval={retrieval} />
              ) : (
                <button type="button" class="secondary" onClick={() => setShowRetrieval(true)}>
                  Show the passages the search found
                </button>
              )}
            </section>
            <section aria-labelledby="history-heading" class="panel">
              <h2 id="history-heading">Feedback history</h2>
              <History id={id} round={historyRound} />
            </section>
            <section aria-labelledby="export-heading" class="panel">
              <h2 id="export-heading">The record</h2>
              <p>
                The analysis to file or produce: the question, the answer with its cited passages and their sources, the claim verdicts, the
                scores and how the confidence was reached, the passages searched, the prompt, models and regions, every timestamp, and the
                judgments and edits in order.
              </p>
              <div class="actions">
                <button type="button" class="secondary" onClick={guarded(() => saveExport(id, 'pdf'))}>
                  Download as PDF
                </button>
                <button type="button" class="secondary" onClick={guarded(() => saveExport(id, 'json'))}>
                  Download as JSON
                </button>
              </div>
            </section>
          </>
        )}
      </div>
      {passage && <Passage cited={passage} onMore={moreOfDocument} onClose={() => setPassage(undefined)} />}
    </main>
  );
};
