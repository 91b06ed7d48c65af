/**
 * Recorded model outputs: `evals/recordings/<category>/<fixture id>.json`, one per runnable fixture,
 * written by `npm run eval -- record` (a live model call through the gateway: the twin's stand-in, or
 * Bedrock with AWS credentials) and read by `--offline` runs, which therefore need no network, no
 * credentials and no database, and give the same result every time. Each recording keeps the hash of
 * the prompt it answered, so an offline run can say which recordings a prompt change made stale.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { jsonPart } from '#core/analysis/answer';
import type { Fixture } from './fixtures';
import type { FixtureResult, Results } from './results';

export const RECORDINGS_DIR = path.join(__dirname, 'recordings');

const recordingSchema = z.object({
  schema_version: z.literal(1),
  fixture_id: z.string(),
  prompt_type: z.string(),
  prompt_version: z.number().int(),
  templates: z.enum(['seed', 'database']),
  prompt_sha256: z.string(),
  model_id: z.string(),
  region: z.string(),
  /** answered by the twin's Bedrock stand-in: extractive text, not AI output */
  standin: z.boolean(),
  recorded_at: z.iso.datetime(),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  /** the model's answer text, verbatim */
  output: z.string(),
});
export type Recording = z.infer<typeof recordingSchema>;

const recordingPath = (fixture: Pick<Fixture, 'category' | 'id'>, dir = RECORDINGS_DIR): string =>
  path.join(dir, fixture.category, `${fixture.id}.json`);

export class RecordingError extends Error {
  override name = 'RecordingError';
}

/** Whether an answer carries the stand-in's label (`"standin": true`). */
export const isStandinOutput = (text: string): boolean => {
  try {
    return (JSON.parse(jsonPart(text)) as { standin?: unknown }).standin === true;
  } catch {
    return false;
  }
};

/** The recording of every fixture; one error naming all that are missing or unreadable. */
export const loadRecordings = async (fixtures: Fixture[], dir = RECORDINGS_DIR): Promise<Map<string, Recording>> => {
  const found = new Map<string, Recording>();
  const problems: string[] = [];
  for (const fixture of fixtures) {
    const file = recordingPath(fixture, dir);
    let raw: string;
    try {
      raw = await readFile(file, 'utf8');
    } catch {
      problems.push(`${fixture.category}/${fixture.id}: no recording`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push(`${fixture.category}/${fixture.id}: ${file} is not valid JSON`);
      continue;
    }
    const parsed = recordingSchema.safeParse(value);
    if (!parsed.success || parsed.data.fixture_id !== fixture.id) {
      problems.push(`${fixture.category}/${fixture.id}: ${file} is not a recording of this fixture`);
      continue;
    }
    found.set(fixture.id, parsed.data);
  }
  if (problems.length > 0) {
    throw new RecordingError(
      `offline runs read recorded outputs, and some are missing or unreadable:\n  ${problems.join('\n  ')}\nrecord them with: npm run eval -- record [--fixture <id>]`,
    );
  }
  return found;
};

export const writeRecording = async (fixture: Fixture, recording: Recording, dir = RECORDINGS_DIR): Promise<string> => {
  const file = recordingPath(fixture, dir);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(recording, null, 2)}\n`);
  return file;
};

/** A command that records stale recordings again, and the fixtures (`<category>/<id>`) it records. */
export interface RecordCommand {
  command: string;
  fixtures: string[];
}

/**
 * The commands that record a run's stale recordings again, from the templates the run used: one per
 * prompt type whose fixtures in the run are all stale (its template changed), else one per stale fixture
 * (the fixture itself changed), so nothing is sent to the model for no reason.
 */
export const recordCommands = (
  fixtures: readonly Pick<FixtureResult, 'id' | 'category' | 'prompt_type' | 'output'>[],
  templates: Results['run']['templates'],
): RecordCommand[] => {
  const suffix = templates === 'database' ? ' --templates database' : '';
  const commands: RecordCommand[] = [];
  for (const type of new Set(fixtures.filter((f) => f.output.stale).map((f) => f.prompt_type))) {
    const ofType = fixtures.filter((f) => f.prompt_type === type);
    const stale = ofType.filter((f) => f.output.stale);
    const groups =
      stale.length === ofType.length
        ? [{ target: `--prompt-type ${type}`, of: stale }]
        : stale.map((f) => ({ target: `--fixture ${f.id}`, of: [f] }));
    for (const g of groups)
      commands.push({ command: `npm run eval -- record ${g.target}${suffix}`, fixtures: g.of.map((f) => `${f.category}/${f.id}`) });
  }
  return commands;
};
