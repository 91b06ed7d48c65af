/**
 * `npm run eval -- record`: asks the model for a fresh answer to each selected fixture (through the
 * gateway, exactly as a live run does) and stores it as the fixture's recording for offline runs.
 * The only way recordings change; a failed call leaves that fixture's old recording in place.
 */
import type { AiGateway } from '#core/ai/gateway';
import { isQualityType, type Fixture } from './fixtures';
import type { Progress } from './progress';
import { isStandinOutput, writeRecording } from './recordings';
import { renderFixture, type Templates } from './render';

export interface RecordReport {
  written: string[];
  failed: { fixture: string; error: string }[];
}

export const recordFixtures = async (options: {
  fixtures: Fixture[];
  templates: Templates;
  gateway: Pick<AiGateway, 'converse'>;
  dir?: string | undefined;
  progress?: Progress | undefined;
  now?: () => Date;
}): Promise<RecordReport> => {
  const now = options.now ?? (() => new Date());
  const report: RecordReport = { written: [], failed: [] };
  for (const fixture of options.fixtures) {
    const name = `${fixture.category}/${fixture.id}`;
    try {
      const rendered = await renderFixture(fixture, options.templates);
      const out = await options.gateway.converse({
        purpose: isQualityType(fixture.prompt_type) ? 'quality' : 'analysis',
        system: rendered.system,
        prompt: rendered.prompt,
      });
      await writeRecording(
        fixture,
        {
          schema_version: 1,
          fixture_id: fixture.id,
          prompt_type: rendered.prompt_type,
          prompt_version: rendered.version,
          templates: options.templates.source,
          prompt_sha256: rendered.sha256,
          model_id: out.modelId,
          region: out.region,
          standin: isStandinOutput(out.text),
          recorded_at: now().toISOString(),
          usage: { input_tokens: out.usage.inputTokens, output_tokens: out.usage.outputTokens },
          output: out.text,
        },
        options.dir,
      );
      report.written.push(name);
    } catch (error) {
      report.failed.push({ fixture: name, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
    options.progress?.tick(name);
  }
  options.progress?.done();
  return report;
};
