/**
 * The prompts of a fixture, rendered exactly as the service renders them: the same templates (the
 * seeded version 1, or the active versions of a database), `renderTemplate`, `topicText`,
 * `renderAnalysis`, and the same placeholder values as the generation worker and the quality checks
 * (test/evals/parity.test.ts holds the evals to the worker's prompt, word for word).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { activeTemplate, analysisPromptValues, evidenceText, renderTemplate, topicText, type ActiveTemplate } from '../layers/core/analysis/prompts';
import { renderAnalysis } from '../layers/core/analysis/quality';
import type { Database } from '../layers/core/db/schema';
import { INITIAL_TEMPLATES } from '../layers/core/db/migrations/0003-prompt-templates';
import { isQualityType, type Fixture } from './fixtures';

export type TemplateSource = 'seed' | 'database';

export interface Templates {
  source: TemplateSource;
  get: (promptType: string) => Promise<ActiveTemplate>;
}

/** Version 1 as migration 0003 plants it: no database needed. */
export const seededTemplates = (): Templates => ({
  source: 'seed',
  get: async (promptType) => {
    const t = INITIAL_TEMPLATES[promptType];
    if (!t) throw new Error(`no seeded template for prompt type ${promptType}`);
    return { prompt_type: promptType, version: 1, system_prompt: t.system, user_prompt_template: t.user };
  },
});

/** The active version of each type in a database, as generation would pick it. */
export const databaseTemplates = (db: Kysely<Database>): Templates => ({ source: 'database', get: (promptType) => activeTemplate(db, promptType) });

export interface RenderedPrompt {
  prompt_type: string;
  version: number;
  /** sha256 of the template itself (system + user template), to tell prompt versions apart in results */
  template_sha256: string;
  system: string;
  prompt: string;
  /** sha256 of system + prompt: a recording made from another prompt is stale */
  sha256: string;
  /** the chunk ids in the prompt: the only ids a citation may name */
  chunk_ids: ReadonlySet<string>;
}

/** A fixture's passages as the prompts' {{evidence}}. */
export const fixtureEvidence = (fixture: Pick<Fixture, 'evidence'>): string => evidenceText(fixture.evidence);

export const promptValues = (fixture: Fixture): Record<string, string> =>
  isQualityType(fixture.prompt_type)
    ? {
        analysis: renderAnalysis(fixture.analysis_under_review ?? null),
        question: fixture.question ?? '',
        topic: topicText(fixture.topic),
        evidence: fixtureEvidence(fixture),
      }
    : analysisPromptValues({
        investigationTitle: fixture.investigation.title,
        question: fixture.question,
        topic: fixture.topic,
        evidence: fixture.evidence,
        regeneration: fixture.regeneration,
      });

export const promptHash = (system: string, prompt: string): string => createHash('sha256').update(system).update('\u0000').update(prompt).digest('hex');

export const renderFixture = async (fixture: Fixture, templates: Templates): Promise<RenderedPrompt> => {
  const template = await templates.get(fixture.prompt_type);
  const values = promptValues(fixture);
  const system = renderTemplate(template.system_prompt, values);
  const prompt = renderTemplate(template.user_prompt_template, values);
  return {
    prompt_type: template.prompt_type, version: template.version, template_sha256: promptHash(template.system_prompt, template.user_prompt_template),
    system, prompt, sha256: promptHash(system, prompt),
    chunk_ids: new Set(fixture.evidence.map((p) => p.id)),
  };
};
