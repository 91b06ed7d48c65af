/**
 * One investigation: the evidence check before generating (how far the evidence has come in, counts, breakdown, the
 * informational note, the blocking message with Generate disabled), its analyses with their badges, its questions and
 * topics with forms to add them, and its evidence with the ways to add more (./Evidence.tsx).
 */
import { useState } from 'preact/hooks';
import { client, unwrap } from '../api';
import { navigate, onLink } from '../router';
import type { components } from '../../api/schema';
import {
  Badge,
  Busy,
  Loading,
  plural,
  Problem,
  ShowMore,
  useAction,
  useLoad,
  usePages,
  useWatched,
  when,
  withDetails,
} from '../components/ui';
import { ingestionBusy } from '../poll';
import { useTransfers } from '../components/files';
import { AddBackgroundDocument, AddEvidence, EvidenceList, ImportEvidence, IngestionSummary } from './Evidence';

type AnalysisType = components['schemas']['AnalysisRequest']['analysis_type'];
type Assessment = components['schemas']['Assessment'];
type InvestigationDetail = components['schemas']['InvestigationGetResponse'];
type Ingestion = components['schemas']['IngestionStatusResponse'];

export const ANALYSIS_TYPES: Record<AnalysisType, string> = {
  question: 'Answer a question',
  topic: 'Analyse a topic',
  summary: 'Summarise the evidence',
  gap: 'Find evidence gaps',
  error_check: 'Check for errors and inconsistencies',
};

const EvidenceCheck = ({
  investigation,
  ingestion,
}: {
  investigation: InvestigationDetail;
  ingestion: Parameters<typeof IngestionSummary>[0]['state'];
}) => {
  const [type, setType] = useState<AnalysisType>(investigation.questions.length > 0 ? 'question' : 'summary');
  // the first question or topic until one is chosen (one added later counts too)
  const [chosenQuestion, setQuestionId] = useState('');
  const [chosenTopic, setTopicId] = useState('');
  const questionId = chosenQuestion || (investigation.questions[0]?.question_id ?? '');
  const topicId = chosenTopic || (investigation.topics[0]?.topic_id ?? '');
  const [assessment, setAssessment] = useState<Assessment>();
  const { working, problem, run: act } = useAction<'checking' | 'generating'>();
  const selection = {
    investigation_id: investigation.investigation_id,
    analysis_type: type,
    ...(type === 'question' && { question_id: questionId }),
    ...(type === 'topic' && { topic_id: topicId }),
  };
  const check = (event: Event) => {
    event.preventDefault();
    void act(async () => setAssessment(await unwrap(client.POST('/api/analysis/assess', { body: selection }))), 'checking');
  };
  const generate = () =>
    act(async () => {
      const created = await unwrap(client.POST('/api/analysis', { body: selection }));
      navigate(`/analyses/${created.analysis_id}`);
    }, 'generating');
  const changed = (apply: () => void) => {
    apply();
    setAssessment(undefined);
  };

  return (
    <section aria-labelledby="check-heading" class="panel">
      <h2 id="check-heading">New analysis</h2>
      <IngestionSummary state={ingestion} />
      <form onSubmit={check}>
        <label for="analysis-type">Analysis</label>
        <select id="analysis-type" value={type} onChange={(e) => changed(() => setType(e.currentTarget.value as AnalysisType))}>
          {Object.entries(ANALYSIS_TYPES).map(([value, label]) => (
            <option
              key={value}
              value={value}
              disabled={
                value === 'question' ? investigation.questions.length === 0 : value === 'topic' && investigation.topics.length === 0
              }
            >
              {label}
            </option>
          ))}
        </select>
        {type === 'question' && (
          <>
            <label for="analysis-question">Question</label>
            <select id="analysis-question" value={questionId} onChange={(e) => changed(() => setQuestionId(e.currentTarget.value))}>
              {investigation.questions.map((q) => (
                <option key={q.question_id} value={q.question_id}>
                  {q.text} ({q.linked_evidence_count} linked)
                </option>
              ))}
            </select>
          </>
        )}
        {type === 'topic' && (
          <>
            <label for="analysis-topic">Topic</label>
            <select id="analysis-topic" value={topicId} onChange={(e) => changed(() => setTopicId(e.currentTarget.value))}>
              {investigation.topics.map((t) => (
                <option key={t.topic_id} value={t.topic_id}>
                  {t.title}
                </option>
              ))}
            </select>
          </>
        )}
        <div class="actions">
          <button type="submit" class="secondary" disabled={working !== undefined}>
            Check the evidence
          </button>
        </div>
      </form>
      {working === 'checking' && <Busy label="Checking the evidence…" />}
      {assessment && (
        <div class="assessment" aria-live="polite">
          <h3>Evidence check</h3>
          <dl class="figures">
            <div>
              <dt>Evidence items</dt>
              <dd>{assessment.total_evidence}</dd>
            </div>
            {assessment.linked_evidence !== null && (
              <div>
                <dt>Linked to the question</dt>
                <dd>{assessment.linked_evidence}</dd>
              </div>
            )}
            <div>
              <dt>With text content</dt>
              <dd>{assessment.source_breakdown.content}</dd>
            </div>
            <div>
              <dt>Attachments</dt>
              <dd>{assessment.source_breakdown.attachments}</dd>
            </div>
            <div>
              <dt>Background documents for the AI</dt>
              <dd>
                {assessment.background_documents.included_count} of {assessment.background_documents.count}
              </dd>
            </div>
          </dl>
          {assessment.note && (
            <p class="note" role="note">
              {assessment.note}
            </p>
          )}
          {assessment.refusal && (
            <p class="problem" role="alert">
              {assessment.refusal.message}
            </p>
          )}
          <div class="actions">
            <button type="button" disabled={!assessment.can_generate || working !== undefined} onClick={generate}>
              Generate analysis
            </button>
          </div>
        </div>
      )}
      {working === 'generating' && <Busy label="Starting the analysis…" />}
      <Problem message={problem} />
    </section>
  );
};

/** What an analysis answers, in words: its question or topic, or what its type does. */
export const analysisSubject = (analysis: {
  analysis_type: AnalysisType;
  question_text: string | null;
  topic_title: string | null;
}): string => analysis.question_text ?? analysis.topic_title ?? ANALYSIS_TYPES[analysis.analysis_type];

const AnalysisRows = ({ investigation }: { investigation: InvestigationDetail }) => {
  const investigationId = investigation.investigation_id;
  const analyses = usePages(
    async (cursor) => {
      const page = await unwrap(
        client.GET('/api/analysis', { params: { query: { investigation_id: investigationId, limit: 20, ...(cursor && { cursor }) } } }),
      );
      return { items: page.analyses, next_cursor: page.next_cursor };
    },
    [investigationId],
  );
  return (
    <Loading state={analyses} label="analyses">
      {({ items: rows, next_cursor }) =>
        rows.length === 0 ? (
          <p>No analyses yet: choose one above, check the evidence, then generate it.</p>
        ) : (
          <>
            <ul class="rows">
              {rows.map((a) => (
                <li key={a.analysis_id}>
                  <a href={`/analyses/${a.analysis_id}`} onClick={onLink}>
                    {analysisSubject(a)}
                  </a>
                  {(a.question_id || a.topic_id) && <span class="meta">{ANALYSIS_TYPES[a.analysis_type]}</span>}
                  <span class="meta">{when(a.created_at)}</span>
                  <span class="meta">{a.generation_status.replace('_', ' ')}</span>
                  {a.feedback_badge && <Badge color={a.feedback_badge.color}>{a.feedback_badge.label}</Badge>}
                </li>
              ))}
            </ul>
            <ShowMore
              shown={plural(rows.length, 'analysis', 'analyses')}
              next={next_cursor}
              loading={analyses.loading}
              onMore={analyses.more}
            />
          </>
        )
      }
    </Loading>
  );
};

/** The investigation's questions and topics, each with its inline form to add one (what analyses are asked about). */
const QuestionsAndTopics = ({ investigation, onChanged }: { investigation: InvestigationDetail; onChanged: () => void }) => {
  const id = investigation.investigation_id;
  const [question, setQuestion] = useState('');
  const [topic, setTopic] = useState('');
  const [topicDescription, setTopicDescription] = useState('');
  const asking = useAction(withDetails);
  const naming = useAction(withDetails);
  // the forms open at first only while there is nothing to list above them
  const [askOpen] = useState(investigation.questions.length === 0);
  const [nameOpen] = useState(investigation.topics.length === 0);
  const addQuestion = (event: Event) => {
    event.preventDefault();
    void asking.run(async () => {
      await unwrap(
        client.POST('/api/investigations/{investigation_id}/questions', {
          params: { path: { investigation_id: id } },
          body: { text: question },
        }),
      );
      setQuestion('');
      onChanged();
    });
  };
  const addTopic = (event: Event) => {
    event.preventDefault();
    void naming.run(async () => {
      await unwrap(
        client.POST('/api/investigations/{investigation_id}/topics', {
          params: { path: { investigation_id: id } },
          body: { title: topic, ...(topicDescription.trim() && { description: topicDescription }) },
        }),
      );
      setTopic('');
      setTopicDescription('');
      onChanged();
    });
  };
  return (
    <section aria-labelledby="questions-heading" class="panel">
      <h2 id="questions-heading">Questions</h2>
      {investigation.questions.length === 0 ? (
        <p>No questions yet: add the first one the investigation should answer.</p>
      ) : (
        <ul class="rows">
          {investigation.questions.map((q) => (
            <li key={q.question_id}>
              <span>{q.text}</span>
              <span class="meta">{plural(q.linked_evidence_count, 'linked evidence item')}</span>
            </li>
          ))}
        </ul>
      )}
      <details class="add" open={askOpen}>
        <summary>Add a question</summary>
        <form onSubmit={addQuestion}>
          <label for="new-question">New question</label>
          <textarea id="new-question" required maxLength={2000} value={question} onInput={(e) => setQuestion(e.currentTarget.value)} />
          <div class="actions">
            <button type="submit" class="secondary" disabled={asking.working}>
              Add question
            </button>
          </div>
        </form>
        <Problem message={asking.problem} />
      </details>
      <h2 id="topics-heading">Topics</h2>
      {investigation.topics.length === 0 ? (
        <p>No topics yet.</p>
      ) : (
        <ul class="rows" aria-labelledby="topics-heading">
          {investigation.topics.map((t) => (
            <li key={t.topic_id}>
              <span>{t.title}</span>
              {t.description && <span class="meta">{t.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <details class="add" open={nameOpen}>
        <summary>Add a topic</summary>
        <form onSubmit={addTopic}>
          <label for="new-topic">New topic</label>
          <input id="new-topic" required maxLength={300} value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
          <label for="new-topic-description">Description (optional)</label>
          <textarea
            id="new-topic-description"
            maxLength={10000}
            value={topicDescription}
            onInput={(e) => setTopicDescription(e.currentTarget.value)}
          />
          <div class="actions">
            <button type="submit" class="secondary" disabled={naming.working}>
              Add topic
            </button>
          </div>
        </form>
        <Problem message={naming.problem} />
      </details>
    </section>
  );
};

/** An investigation with nothing in it yet: the forms that add to it open at once. */
const empty = (investigation: InvestigationDetail) => investigation.evidence_count + investigation.background_document_count === 0;

/** The counts that say the evidence list changed (an item became ready, one was added or failed). */
const changeMark = (s: Ingestion | undefined): string =>
  s ? [s.items_total, s.items_ready, s.items_processing, s.items_failed, s.imports_in_progress].join('/') : '';

export const Investigation = ({ id }: { id: string }) => {
  const detail = useLoad(
    () => unwrap(client.GET('/api/investigations/{investigation_id}', { params: { path: { investigation_id: id } } })),
    [id],
  );
  const ingestion = useWatched(
    () => unwrap(client.GET('/api/investigations/{investigation_id}/ingestion', { params: { path: { investigation_id: id } } })),
    ingestionBusy,
    [id],
  );
  const [edits, setEdits] = useState(0);
  const uploads = useTransfers();
  const evidence = usePages(
    (cursor) =>
      unwrap(
        client.GET('/api/investigations/{investigation_id}/evidence', {
          params: { path: { investigation_id: id }, query: { limit: 15, ...(cursor && { cursor }) } },
        }),
      ),
    [id, changeMark(ingestion.data), edits],
  );
  /** Evidence was added, changed or deleted: read the list again (and the questions' linked counts), and watch the readiness again. */
  const evidenceChanged = () => {
    setEdits((n) => n + 1);
    detail.reload();
    ingestion.reload();
  };
  return (
    <main>
      <p class="crumbs">
        <a href="/" onClick={onLink}>
          Investigations
        </a>
      </p>
      <Loading state={detail} label="the investigation">
        {(investigation) => (
          <>
            <h1>{investigation.title}</h1>
            <p>{investigation.description}</p>
            <div class="columns">
              <div>
                <EvidenceCheck investigation={investigation} ingestion={ingestion} />
                <section aria-labelledby="analyses-heading" class="panel">
                  <h2 id="analyses-heading">Analyses</h2>
                  <AnalysisRows investigation={investigation} />
                  <p>
                    <a href={`/investigations/${id}/metrics`} onClick={onLink}>
                      Feedback metrics
                    </a>
                  </p>
                </section>
                <QuestionsAndTopics investigation={investigation} onChanged={detail.reload} />
              </div>
              <div>
                <section aria-labelledby="evidence-heading" class="panel">
                  <h2 id="evidence-heading">Evidence</h2>
                  <EvidenceList investigationId={id} evidence={evidence} uploads={uploads} onChanged={evidenceChanged} />
                </section>
                <AddEvidence investigation={investigation} uploads={uploads} open={empty(investigation)} onAdded={evidenceChanged} />
                <AddBackgroundDocument investigationId={id} open={empty(investigation)} onAdded={evidenceChanged} />
                <ImportEvidence investigationId={id} open={empty(investigation)} onChanged={evidenceChanged} />
              </div>
            </div>
          </>
        )}
      </Loading>
    </main>
  );
};
