/**
 * The prompts of a fixture, rendered exactly as the service renders them: the same templates (the
 * newest seeded versions, or the active versions of a database), `renderTemplate`, and the same
 * placeholder values as the generation worker and the quality checks (`analysisPromptValues`,
 * `qualityPromptValues`; test/evals/live.test.ts holds the evals to the worker's prompt, word for word).
 * The only difference: the evidence markers' labels are derived from the fixture's id instead of
 * random, so a fixture's prompt is the same on every run and its recording's citations still name them.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { labelOf8Bytes, type EvidenceMarkers, type NonceSource } from '#core/analysis/evidence-markers';
import { activeTemplate, analysisPromptValues, renderTemplate, type ActiveTemplate } from '#core/analysis/prompts';
import { qualityPromptValues } from '#core/analysis/quality';
import type { Database } from '#core/db/schema';
import { FENCED_TEMPLATES } from '#core/db/migrations/0010-fenced-prompts';
import { SHARED_PREFIX_TEMPLATES } from '#core/db/migrations/0024-prompt-cache';
import { isQualityType, type Fixture } from './fixtures';

export type TemplateSource = 'seed' | 'database';

export interface Templates {
  source: TemplateSource;
  get: (promptType: string) => Promise<ActiveTemplate>;
}

/**
 * The newest version the migrations plant on a fresh database: version 2 from 0010, and of the quality checks the
 * versions 0024 adds (quality_faithfulness 3; quality_coverage 4, after 0020's). No database needed.
 */
export const seededTemplates = (): Templates => ({
  source: 'seed',
  get: async (promptType) => {
    const [t, version] =
      promptType === 'quality_faithfulness' || promptType === 'quality_coverage'
        ? [SHARED_PREFIX_TEMPLATES[promptType], promptType === 'quality_coverage' ? 4 : 3]
        : [FENCED_TEMPLATES[promptType], 2];
    if (!t) throw new Error(`no seeded template for prompt type ${promptType}`);
    return { prompt_type: promptType, version, system_prompt: t.system, user_prompt_template: t.user };
  },
});

/** The active version of each type in a database, as generation would pick it. */
export const databaseTemplates = (db: Kysely<Database>): Templates => ({
  source: 'database',
  get: (promptType) => activeTemplate(db, promptType),
});

export interface RenderedPrompt {
  prompt_type: string;
  version: number;
  /** sha256 of the template itself (system + user template), to tell prompt versions apart in results */
  template_sha256: string;
  system: string;
  prompt: string;
  /** sha256 of system + prompt: a recording made from another prompt is stale */
  sha256: string;
  /** the markers issued for the prompt's passages: the only labels a citation may name */
  markers: EvidenceMarkers;
}

/** Stable marker labels for one model call of a fixture: from sha256(seed, n) for the n-th label. */
const fixtureNonce = (seed: string): NonceSource => {
  let n = 0;
  return () => labelOf8Bytes(createHash('sha256').update(`${seed}\u0000${n++}`).digest());
};

const promptValues = (
  fixture: Fixture,
  nonce: NonceSource = fixtureNonce(fixture.id),
): { values: Record<string, string>; markers: EvidenceMarkers } => {
  if (!isQualityType(fixture.prompt_type)) {
    return analysisPromptValues(
      {
        investigationTitle: fixture.investigation.title,
        question: fixture.question,
        topic: fixture.topic,
        evidence: fixture.evidence,
        regeneration: fixture.regeneration,
      },
      nonce,
    );
  }
  return qualityPromptValues(
    { analysis: fixture.analysis_under_review ?? null, question: fixture.question, topic: fixture.topic, evidence: fixture.evidence },
    nonce,
  );
};

const promptHash = (system: string, prompt: string): string =>
  createHash('sha256').update(system).update('\u0000').update(prompt).digest('hex');

export const renderFixture = async (fixture: Fixture, templates: Templates, nonce?: NonceSource): Promise<RenderedPrompt> => {
  const template = await templates.get(fixture.prompt_type);
  const { values, markers } = promptValues(fixture, nonce);
  const system = renderTemplate(template.system_prompt, values);
  const prompt = renderTemplate(template.user_prompt_template, values);
  return {
    prompt_type: template.prompt_type,
    version: template.version,
    template_sha256: promptHash(template.system_prompt, template.user_prompt_template),
    system,
    prompt,
    sha256: promptHash(system, prompt),
    markers,
  };
};
