/** Prompt templates: the active version of a prompt type, and rendering its placeholders. */
import type { Kysely } from 'kysely';
import { REGENERATION_REASONS } from '#core/domain/feedback';
import { DomainError } from '#core/errors';
import type { AnalysisType, Database } from '#core/db/schema';
import { issueMarkers, marker, neutralise, type EvidenceMarkers, type NonceSource } from './evidence-markers';

export const PROMPT_TYPE: Record<AnalysisType, string> = {
  question: 'analysis_question',
  topic: 'analysis_topic',
  summary: 'analysis_summary',
  gap: 'analysis_gap',
  error_check: 'analysis_error_check',
};

export interface ActiveTemplate {
  prompt_type: string;
  version: number;
  system_prompt: string;
  user_prompt_template: string;
}

export class PromptUnavailableError extends DomainError {
  override name = 'PromptUnavailableError';
  constructor(message: string) {
    super('conflict', 'prompt_unavailable', message);
  }
}

/** What generation of a deactivated type is refused with: an administrator can act on it. */
export const promptUnavailableMessage = (promptType: string): string =>
  `The prompt template ${promptType} is deactivated; an administrator must activate a version before analyses of this type can run.`;

/**
 * The active versions of a prompt type: the one query behind both "which version runs" (generation)
 * and "can one run" (the assessment before generation, ./assess), so the two never disagree.
 */
export const activeVersions = (db: Kysely<Database>, promptType: string) =>
  db.selectFrom('prompt_templates').where('prompt_type', '=', promptType).where('is_active', '=', true);

/** The newest active version of a prompt type; a type whose templates are all deactivated is refused. */
export const activeTemplate = async (db: Kysely<Database>, promptType: string): Promise<ActiveTemplate> => {
  const row = await activeVersions(db, promptType)
    .select(['prompt_type', 'version', 'system_prompt', 'user_prompt_template'])
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new PromptUnavailableError(promptUnavailableMessage(promptType));
  return row;
};

/** Replaces each {{name}} with its value; unknown placeholders become empty, so a template may omit any. */
export const renderTemplate = (template: string, values: Record<string, string>): string =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

/** A topic as the prompts' {{topic}}: its title, and its description when it has one. */
export const topicText = (topic: { title: string; description: string } | undefined): string =>
  topic ? `${topic.title}${topic.description ? ` — ${topic.description}` : ''}` : '';

/**
 * Evidence passages as the prompts' {{evidence}}: each starts with the marker issued for its chunk in
 * this call (`[chunk:<label>] text`, evidence-markers.ts), blank-line separated, in rank order.
 */
const evidenceText = (passages: readonly { id: string; text: string }[], markers: EvidenceMarkers): string =>
  passages.map((p) => `${marker(markers.labelOf.get(p.id) ?? '')} ${neutralise(p.text)}`).join('\n\n');

/** The passages of one model call: fresh markers and {{evidence}} rendered with them. */
export const fencedEvidence = (
  passages: readonly { id: string; text: string }[],
  nonce?: NonceSource,
): { evidence: string; markers: EvidenceMarkers } => {
  const markers = issueMarkers(
    passages.map((p) => p.id),
    nonce,
  );
  return { evidence: evidenceText(passages, markers), markers };
};

/** The reason as the investigator chose it in the dropdown (stored as its key). */
const reasonLabel = (reason: string): string =>
  Object.hasOwn(REGENERATION_REASONS, reason) ? REGENERATION_REASONS[reason as keyof typeof REGENERATION_REASONS] : reason;

/** The prompts' {{regeneration}}: empty, or the investigator's reason and direction for a new version (user text, neutralised). */
const regenerationText = (regeneration: { reason: string; direction?: string | null } | null | undefined): string =>
  regeneration
    ? neutralise(
        `\nThe investigator asked for a new version. Reason: ${reasonLabel(regeneration.reason)}.${regeneration.direction ? ` Direction: ${regeneration.direction}` : ''}`,
      )
    : '';

/**
 * The line that opens {{evidence}} when no passage reached the similarity floor (retrieval.ts): the
 * closest passages were given anyway, and the model must know they may not bear on the request. Part of
 * the evidence value rather than a placeholder of its own, so every stored template version (an
 * administrator's too) carries it; it sits before the first marker, so it is never read as a passage.
 */
export const LOW_RELEVANCE_NOTE =
  'Note from the service: no passage reached the similarity threshold for this request. ' +
  'The passages below are the closest found and may be only weakly related to it: use only what they actually establish, ' +
  'and say in evidence_gaps what they leave unanswered.';

/**
 * The placeholder values of an analysis prompt and the markers issued for its evidence (the generation
 * worker and the evaluation CLI alike). Every user-written value is neutralised; the templates place
 * them after the evidence, in the investigator's request block (migration 0010).
 */
export const analysisPromptValues = (
  input: {
    investigationTitle: string;
    question?: string | null | undefined;
    topic?: { title: string; description: string } | undefined;
    evidence: readonly { id: string; text: string }[];
    /** the passages are the closest found, none above the similarity floor: {{evidence}} opens with LOW_RELEVANCE_NOTE */
    lowRelevance?: boolean;
    regeneration?: { reason: string; direction?: string | null } | null | undefined;
  },
  nonce?: NonceSource,
): { values: Record<string, string>; markers: EvidenceMarkers } => {
  const { evidence, markers } = fencedEvidence(input.evidence, nonce);
  return {
    values: {
      investigation_title: neutralise(input.investigationTitle),
      question: neutralise(input.question ?? ''),
      topic: neutralise(topicText(input.topic)),
      evidence: input.lowRelevance ? `${LOW_RELEVANCE_NOTE}\n\n${evidence}` : evidence,
      regeneration: regenerationText(input.regeneration),
    },
    markers,
  };
};
