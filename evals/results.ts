/**
 * The results file of a run (`--output`), and what `--compare` reads back. Versioned: a file of
 * another schema_version is refused with a message rather than compared field by field.
 * `npm run eval -- schema` prints it as JSON Schema.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { CONFIDENCE_LEVELS } from '#core/domain/confidence';
import { JUDGE_DIMENSIONS } from './judge';

export const RESULTS_SCHEMA_VERSION = 1;

const metricValues = z.record(z.string(), z.number().nullable());
const judgeScore = z.object({ score: z.number().int().min(1).max(5), reason: z.string() });

const structureSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('analysis'),
    json_parseable: z.boolean(),
    schema_valid: z.boolean(),
    schema_errors: z.string().nullable(),
    validation_status: z.enum(['valid', 'citations_removed', 'uncited_findings']).nullable(),
    findings: z.number().int(),
    citations: z.number().int(),
    valid_citations: z.number().int(),
    invalid_citations: z.array(z.string()),
    cited_findings: z.number().int(),
    confidence: z.enum(CONFIDENCE_LEVELS).nullable(),
    evidence_gaps: z.number().int(),
    evidence_cited: z.number().int(),
    evidence_total: z.number().int(),
  }),
  z.object({
    kind: z.literal('quality'),
    json_parseable: z.boolean(),
    schema_valid: z.boolean(),
    schema_errors: z.string().nullable(),
    score: z.number().nullable(),
  }),
]);

const fixtureResultSchema = z.object({
  id: z.string(),
  category: z.string(),
  prompt_type: z.string(),
  prompt_version: z.number().int(),
  output: z.object({
    source: z.enum(['recorded', 'live']),
    model_id: z.string().nullable(),
    /** the answer came from the twin's Bedrock stand-in (labelled, never passed off as AI output) */
    standin: z.boolean(),
    recorded_at: z.string().nullable(),
    /** recorded from a different prompt than the one rendered now: run `record` again */
    stale: z.boolean(),
    /** the model call failed (live runs): no answer to score */
    error: z.string().nullable(),
  }),
  structure: structureSchema,
  expectations: z.array(z.object({ name: z.string(), passed: z.boolean(), detail: z.string() })),
  /** judge scores (live runs), null when the judge answer was unreadable or the call failed */
  judge: z
    .object(
      Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, judgeScore])) as Record<(typeof JUDGE_DIMENSIONS)[number], typeof judgeScore>,
    )
    .nullable()
    .optional(),
  judge_error: z.string().nullable().optional(),
  passed: z.boolean(),
  metrics: metricValues,
});
export type FixtureResult = z.infer<typeof fixtureResultSchema>;

export const resultsSchema = z.object({
  schema_version: z.literal(RESULTS_SCHEMA_VERSION),
  run: z.object({
    label: z.string(),
    mode: z.enum(['offline', 'live']),
    started_at: z.iso.datetime(),
    finished_at: z.iso.datetime(),
    templates: z.enum(['seed', 'database']),
    filters: z.object({ prompt_type: z.string().nullable(), category: z.string().nullable(), fixture: z.string().nullable() }),
  }),
  models: z.object({ analysis: z.array(z.string()), judge: z.string().nullable() }),
  /** prompt type → the template version used and a hash of its text */
  prompts: z.record(z.string(), z.object({ version: z.number().int(), sha256: z.string() })),
  metrics: metricValues,
  by_category: z.record(z.string(), metricValues),
  confidence_levels: z.record(z.string(), z.number().int()),
  fixtures: z.array(fixtureResultSchema),
  /** design-only fixtures under future/: listed, never executed */
  not_runnable: z.array(z.object({ id: z.string(), analysis_type: z.string(), reason: z.string() })),
});
export type Results = z.infer<typeof resultsSchema>;

export class BaselineError extends Error {
  override name = 'BaselineError';
}

/** A baseline results file, or a BaselineError saying what is wrong with it. */
export const readBaseline = async (file: string): Promise<Results> => {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new BaselineError(`the baseline ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const version = (value as { schema_version?: unknown } | null)?.schema_version;
  if (version !== RESULTS_SCHEMA_VERSION) {
    throw new BaselineError(
      `the baseline ${file} is not a results file of schema_version ${RESULTS_SCHEMA_VERSION} (found ${JSON.stringify(version ?? null)}); produce one with --output`,
    );
  }
  const parsed = resultsSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new BaselineError(`the baseline ${file} is not a valid results file: ${issues}`);
  }
  return parsed.data;
};

export const resultsJsonSchema = (): unknown => z.toJSONSchema(resultsSchema, { io: 'input' });
