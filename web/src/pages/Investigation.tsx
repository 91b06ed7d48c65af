/**
 * One investigation: its evidence, the evidence check before generating (counts, breakdown, the
 * informational note, the blocking message with Generate disabled), and its analyses with their badges.
 */
import { useState } from 'preact/hooks';
import { client, unwrap } from '../api';
import { navigate, onLink } from '../router';
import type { components } from '../../api/schema';
import { Badge, Busy, Loading, Problem, useAction, useLoad, when } from '../components/ui';

type AnalysisType = components['schemas']['AnalysisRequest']['analysis_type'];
type Assessment = components['schemas']['Assessment'];
type InvestigationDetail = components['schemas']['InvestigationGetResponse'];

export const ANALYSIS_TYPES: Record<AnalysisType, string> = {
  question: 'Answer a question',
  topic: 'Analyse a topic',
  summary: 'Summarise the evidence',
  gap: 'Find evidence gaps',
  error_check: 'Check for errors and inconsistencies',
};

/** Opens a file of the investigation in a new tab, by the API's short-lived link (a plain link cannot carry the bearer). */
export const openFile = async (query: { attachment_id: string } | { background_document_id: string }) => {
  const link = await unwrap(client.GET('/api/storage/view', { params: { query: { ...query, redirect: 'false' } } }));
  window.open((link as { url: string }).url, '_blank', 'noopener');
};

const EvidenceCheck = ({ investigation }: { investigation: InvestigationDetail }) => {
  const [type, setType] = useState<AnalysisType>(investigation.questions.length > 0 ? 'question' : 'summary');
  const [questionId, setQuestionId] = useState(investigation.questions[0]?.question_id ?? '');
  const [topicId, setTopicId] = useState(investigation.topics[0]?.topic_id ?? '');
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

const AnalysisRows = ({ investigationId }: { investigationId: string }) => {
  const analyses = useLoad(
    () => unwrap(client.GET('/api/analysis', { params: { query: { investigation_id: investigationId, limit: 50 } } })),
    [investigationId],
  );
  return (
    <Loading state={analyses} label="analyses">
      {({ analyses: rows }) =>
        rows.length === 0 ? (
          <p>No analyses yet.</p>
        ) : (
          <ul class="rows">
            {rows.map((a) => (
              <li key={a.analysis_id}>
                <a href={`/analyses/${a.analysis_id}`} onClick={onLink}>
                  {ANALYSIS_TYPES[a.analysis_type]}
                </a>
                <span class="meta">{when(a.created_at)}</span>
                <span class="meta">{a.generation_status.replace('_', ' ')}</span>
                {a.feedback_badge && <Badge color={a.feedback_badge.color}>{a.feedback_badge.label}</Badge>}
              </li>
            ))}
          </ul>
        )
      }
    </Loading>
  );
};

export const Investigation = ({ id }: { id: string }) => {
  const detail = useLoad(
    () => unwrap(client.GET('/api/investigations/{investigation_id}', { params: { path: { investigation_id: id } } })),
    [id],
  );
  const evidence = useLoad(
    () =>
      unwrap(
        client.GET('/api/investigations/{investigation_id}/evidence', {
          params: { path: { investigation_id: id }, query: { limit: 100 } },
        }),
      ),
    [id],
  );
  const { problem, run } = useAction();
  const open = (query: Parameters<typeof openFile>[0]) => run(() => openFile(query));
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
                <EvidenceCheck investigation={investigation} />
                <section aria-labelledby="analyses-heading" class="panel">
                  <h2 id="analyses-heading">Analyses</h2>
                  <AnalysisRows investigationId={id} />
                  <p>
                    <a href={`/investigations/${id}/metrics`} onClick={onLink}>
                      Feedback metrics
                    </a>
                  </p>
                </section>
              </div>
              <section aria-labelledby="evidence-heading" class="panel">
                <h2 id="evidence-heading">Evidence</h2>
                <Problem message={problem} />
                <Loading state={evidence} label="evidence">
                  {({ items, next_cursor }) => (
                    <>
                      <ul class="rows">
                        {items.map((item) =>
                          item.kind === 'evidence_item' ? (
                            <li key={item.evidence_item_id}>
                              <span>{item.title}</span>
                              <span class="meta">{when(item.collected_at)}</span>
                              {item.attachments.map((a) => (
                                <button
                                  key={a.attachment_id}
                                  type="button"
                                  class="link"
                                  onClick={() => open({ attachment_id: a.attachment_id })}
                                >
                                  {a.file_name}
                                </button>
                              ))}
                            </li>
                          ) : (
                            <li key={item.background_document_id}>
                              <span>{item.title}</span>
                              <Badge color="gray">Background{item.included ? ', used by the AI' : ', not used by the AI'}</Badge>
                              <button
                                type="button"
                                class="link"
                                onClick={() => open({ background_document_id: item.background_document_id })}
                              >
                                {item.file_name}
                              </button>
                            </li>
                          ),
                        )}
                      </ul>
                      {next_cursor && <p class="meta">Showing the first {items.length} items.</p>}
                    </>
                  )}
                </Loading>
              </section>
            </div>
          </>
        )}
      </Loading>
    </main>
  );
};
