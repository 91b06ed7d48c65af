/**
 * Evaluation fixtures: `evals/fixtures/<category>/<id>.json`, one small investigation each (evidence
 * passages, the question or topic, the prompt type) and what a good answer must do. `future/` holds
 * fixtures of the design-only analysis types: they are read only to be listed as not runnable, and
 * never rendered or sent to a model.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { PROMPT_TYPE } from '#core/analysis/prompts';
import { QUALITY_PROMPT_TYPES } from '#core/analysis/quality';
import { CONFIDENCE_LEVELS } from '#core/domain/confidence';
import { REGENERATION_REASON_KEYS } from '#core/domain/feedback';

export const FIXTURES_DIR = path.join(__dirname, 'fixtures');
export const RUNNABLE_CATEGORIES = ['basic', 'edge', 'adversarial'] as const;
type Category = (typeof RUNNABLE_CATEGORIES)[number];
const FUTURE_CATEGORY = 'future';

const ANALYSIS_PROMPT_TYPES = Object.values(PROMPT_TYPE);
export const QUALITY_TYPES = Object.values(QUALITY_PROMPT_TYPES);
export const RUNNABLE_PROMPT_TYPES = [...ANALYSIS_PROMPT_TYPES, ...QUALITY_TYPES] as [string, ...string[]];

export const isQualityType = (promptType: string): boolean => QUALITY_TYPES.includes(promptType as (typeof QUALITY_TYPES)[number]);

const text = z.string().trim().min(1);

const expectationsSchema = z.strictObject({
  /** every finding cites at least one real passage, and there is at least one finding */
  must_cite: z.boolean().optional(),
  /** the answer admits what the evidence does not establish: evidence_gaps not empty, or confidence insufficient */
  must_flag_missing_evidence: z.boolean().optional(),
  /** allowed confidence levels (the expected range) */
  confidence_in: z.array(z.enum(CONFIDENCE_LEVELS)).min(1).optional(),
  min_findings: z.number().int().min(0).optional(),
  max_findings: z.number().int().min(0).optional(),
  /** phrases the answer must contain somewhere (case-insensitive), e.g. the key fact */
  must_mention: z.array(text).optional(),
  /** phrases that must not appear (case-insensitive), e.g. what an injected instruction asks for */
  must_not_mention: z.array(text).optional(),
  /** regular expressions (JavaScript, case-sensitive) the answer must not match, e.g. the shape of an invented account number */
  must_not_match: z
    .array(
      z.string().refine((source) => {
        try {
          new RegExp(source);
          return true;
        } catch {
          return false;
        }
      }, 'must be a valid regular expression'),
    )
    .optional(),
  /** ids that must never be cited, as chunk ids or as written (e.g. a spoofed `[chunk:…]` marker planted inside a passage) */
  must_not_cite: z.array(text).optional(),
  /** quality prompts: the verdict's score must fall in [min, max] */
  score_between: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]).optional(),
});
export type Expectations = z.infer<typeof expectationsSchema>;

const passageSchema = z.strictObject({
  /** the chunk id: what citations translate back to (the prompt marks the passage with a label issued for the call) */
  id: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
  /** the evidence item it comes from, for readers of the fixture */
  source: text,
  text,
});

const fixtureSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    description: text,
    prompt_type: z.enum(RUNNABLE_PROMPT_TYPES),
    investigation: z.strictObject({ title: text, description: z.string().default('') }),
    question: text.optional(),
    topic: z.strictObject({ title: text, description: z.string().default('') }).optional(),
    regeneration: z.strictObject({ reason: z.enum(REGENERATION_REASON_KEYS), direction: z.string().optional() }).optional(),
    /** in rank order, as retrieval would include them */
    evidence: z.array(passageSchema),
    /** quality prompts only: the analysis whose faithfulness or coverage is checked */
    analysis_under_review: z
      .strictObject({
        summary: z.string(),
        findings: z.array(z.strictObject({ statement: text, citations: z.array(z.string()) })),
      })
      .optional(),
    expectations: expectationsSchema,
  })
  .superRefine((f, ctx) => {
    const need = (ok: boolean, pathName: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [pathName], message });
    };
    need(f.prompt_type !== PROMPT_TYPE.question || f.question !== undefined, 'question', `is required for ${PROMPT_TYPE.question}`);
    need(f.prompt_type !== PROMPT_TYPE.topic || f.topic !== undefined, 'topic', `is required for ${PROMPT_TYPE.topic}`);
    need(
      isQualityType(f.prompt_type) === (f.analysis_under_review !== undefined),
      'analysis_under_review',
      'is required for quality prompt types and only for them',
    );
    need(
      isQualityType(f.prompt_type) || f.expectations.score_between === undefined,
      'expectations.score_between',
      'applies to quality prompt types only',
    );
    const ids = f.evidence.map((p) => p.id);
    need(new Set(ids).size === ids.length, 'evidence', 'passage ids must be unique');
  });
type FixtureData = z.infer<typeof fixtureSchema>;
export interface Fixture extends FixtureData {
  category: Category;
  file: string;
}

/** Design-only types are described, not specified: only what the listing needs is required. */
const futureFixtureSchema = z.looseObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** the analysis type as a client would send it; the service refuses it as design-only */
  analysis_type: text,
  description: text,
});
interface FutureFixture {
  id: string;
  analysis_type: string;
  description: string;
  file: string;
}

export class FixtureError extends Error {
  override name = 'FixtureError';
}

const jsonFiles = async (dir: string): Promise<string[]> => {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => path.join(dir, n));
};

const readJson = async (file: string): Promise<unknown> => {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new FixtureError(`${file}: not valid JSON (${(error as Error).message})`);
  }
};

const check = <T>(schema: z.ZodType<T>, value: unknown, file: string): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new FixtureError(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
};

const sameAsFileName = (id: string, file: string) => {
  if (path.basename(file, '.json') !== id) throw new FixtureError(`${file}: id '${id}' must match the file name`);
};

export interface FixtureSet {
  runnable: Fixture[];
  future: FutureFixture[];
}

/** Every fixture under `dir`, validated; a bad fixture stops the run with its file and field named. */
export const loadFixtures = async (dir = FIXTURES_DIR): Promise<FixtureSet> => {
  const runnable: Fixture[] = [];
  for (const category of RUNNABLE_CATEGORIES) {
    for (const file of await jsonFiles(path.join(dir, category))) {
      const data = check(fixtureSchema, await readJson(file), file);
      sameAsFileName(data.id, file);
      runnable.push({ ...data, category, file });
    }
  }
  const future: FutureFixture[] = [];
  for (const file of await jsonFiles(path.join(dir, FUTURE_CATEGORY))) {
    const { id, analysis_type, description } = check(futureFixtureSchema, await readJson(file), file);
    sameAsFileName(id, file);
    future.push({ id, analysis_type, description, file });
  }
  const ids = runnable.map((f) => f.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new FixtureError(`fixture id '${duplicate}' is used in more than one category`);
  return { runnable, future };
};

export interface Filters {
  promptType?: string | undefined;
  category?: string | undefined;
  fixture?: string | undefined;
}

/**
 * The fixtures a run executes, and the design-only ones matching the same filters (listed, never run).
 * A future fixture matches a prompt-type filter by its analysis_type; a category filter never selects it.
 */
export const selectFixtures = (set: FixtureSet, filters: Filters): FixtureSet => ({
  runnable: set.runnable.filter(
    (f) =>
      (filters.promptType === undefined || f.prompt_type === filters.promptType) &&
      (filters.category === undefined || f.category === filters.category) &&
      (filters.fixture === undefined || f.id === filters.fixture),
  ),
  future: set.future.filter(
    (f) =>
      (filters.promptType === undefined || f.analysis_type === filters.promptType) &&
      filters.category === undefined &&
      (filters.fixture === undefined || f.id === filters.fixture),
  ),
});
