/**
 * What a prompt template version must satisfy before it can be stored (pure). The renderer
 * (`renderTemplate`) replaces `{{name}}` with the values generation or the quality check supplies
 * and turns an unknown name into an empty string — so a typo such as `{{evidense}}` would silently
 * send the model no evidence. A new version is therefore refused when it names a placeholder its
 * prompt type is not given, writes one the renderer cannot read (`{{ evidence }}`), or leaves out one
 * the type cannot work without.
 */
import { PROMPT_TYPE } from '#core/analysis/prompts';

export interface PromptRule {
  /** the values the renderer supplies for this type */
  placeholders: readonly string[];
  /** those the template must use somewhere (system prompt or user prompt template) */
  required: readonly string[];
}

/** supplied by generation (layers/core/analysis/generation.ts) */
const ANALYSIS = ['investigation_title', 'question', 'topic', 'evidence', 'regeneration'] as const;
/** supplied by the quality check (layers/core/analysis/quality.ts) */
const QUALITY = ['analysis', 'question', 'topic', 'evidence'] as const;

const analysis = (...extra: string[]): PromptRule => ({ placeholders: ANALYSIS, required: ['evidence', 'regeneration', ...extra] });

/** Every prompt type the service renders; an unknown type is refused. */
export const PROMPT_RULES: Readonly<Record<string, PromptRule>> = {
  [PROMPT_TYPE.question]: analysis('question'),
  [PROMPT_TYPE.topic]: analysis('topic'),
  [PROMPT_TYPE.summary]: analysis(),
  [PROMPT_TYPE.gap]: analysis(),
  [PROMPT_TYPE.error_check]: analysis(),
  quality_faithfulness: { placeholders: QUALITY, required: ['analysis', 'evidence'] },
  // coverage is judged against the question or the topic, whichever the analysis was about
  quality_coverage: { placeholders: QUALITY, required: ['analysis', 'evidence', 'question', 'topic'] },
};

export const PROMPT_TYPES = Object.keys(PROMPT_RULES) as [string, ...string[]];

export const isPromptType = (value: string): boolean => Object.hasOwn(PROMPT_RULES, value);

export interface TemplateProblem {
  path: string;
  message: string;
}

const BRACED = /\{\{([^{}]*)\}\}/g;
const READABLE = /^\w+$/; // what renderTemplate's pattern accepts between the braces

const list = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(', ');

/** The problems of a candidate version, each naming the field it is in; empty when it may be stored. */
export const templateProblems = (promptType: string, texts: { system_prompt: string; user_prompt_template: string }): TemplateProblem[] => {
  const rule = PROMPT_RULES[promptType];
  if (!rule) return [{ path: 'prompt_type', message: `unknown prompt type; one of ${PROMPT_TYPES.join(', ')}` }];
  const problems: TemplateProblem[] = [];
  const used = new Set<string>();
  for (const path of ['system_prompt', 'user_prompt_template'] as const) {
    for (const [, inner] of texts[path].matchAll(BRACED)) {
      const name = inner!;
      if (!READABLE.test(name)) {
        problems.push({
          path,
          message: `{{${name}}} is not a placeholder the renderer can fill (write {{name}}, letters, digits and _ only, no spaces)`,
        });
      } else if (!rule.placeholders.includes(name)) {
        problems.push({ path, message: `{{${name}}} is not a placeholder of ${promptType}; it offers ${list(rule.placeholders)}` });
      } else {
        used.add(name);
      }
    }
  }
  const missing = rule.required.filter((name) => !used.has(name));
  if (missing.length > 0) {
    problems.push({
      path: 'user_prompt_template',
      message: `${promptType} needs ${list(missing)} in the system prompt or the user prompt template`,
    });
  }
  // a placeholder misspelt twice is one problem
  return problems.filter((p, i) => problems.findIndex((q) => q.path === p.path && q.message === p.message) === i);
};

/** A one-line preview of a version for the history list. */
export const previewOf = (text: string, max = 160): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};
