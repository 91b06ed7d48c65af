/**
 * Bedrock model ids in the synthesized stacks: the IAM resources a worker may invoke for a foundation
 * model, a geographic and a global inference profile, and a fallback region in another geography; and
 * synth refusing an id it cannot use. The stages (their contexts are test/support/synth.ts's STAGES) are
 * synthesized once per run, with cdk-nag, bundling skipped.
 */
import { GEOGRAPHY_REGIONS } from '#core/ai/models';
import { DEFAULT_AI_MODELS } from '#core/config';
import { HAIKU, resourcesOfType, SONNET, STAGES, synthesized, COHERE_EMBED, type StageName } from '../support/synth';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

/** An ARN as text, pseudo parameters as `${AWS::…}`. */
const render = (arn: string | Json): string =>
  typeof arn === 'string'
    ? arn
    : (arn['Fn::Join'][1] as (string | Json)[]).map((part) => (typeof part === 'string' ? part : `\${${part.Ref}}`)).join('');

/** What a worker's role may call a model on in the stage (bedrock:InvokeModel, or its streaming kind), sorted. */
const invokable = (stage: StageName, functionId: string): string[] => {
  const { prefix, templates } = synthesized(stage);
  const resources = templates.workers.Resources as Record<string, Json>;
  const lambda = Object.values(resources).find(
    (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === `${prefix}-${functionId}`,
  );
  const role = lambda!.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as Json[]).some((ref) => ref.Ref === role))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Json[])
    .filter((statement) => asArray(statement.Action as string | string[]).some((action) => action.startsWith('bedrock:InvokeModel')))
    .flatMap((statement) => asArray(statement.Resource as Json))
    .map(render)
    .sort();
};

const profile = (region: string, id: string) => `arn:\${AWS::Partition}:bedrock:${region}:\${AWS::AccountId}:inference-profile/${id}`;
const foundation = (region: string, model: string) => `arn:\${AWS::Partition}:bedrock:${region}::foundation-model/${model}`;
const sorted = (...arns: string[]) => [...arns].sort();
const only = (arns: string[], model: string) => arns.filter((arn) => arn.endsWith(`/${model}`) || arn.endsWith(`.${model}`));

describe('IAM for the configured models (primary us-east-1, fallback us-west-2 unless said)', () => {
  test('the default US inference profiles: the profile in both AI regions, the model in every US destination region; embeddings in-region', () => {
    expect(DEFAULT_AI_MODELS).toMatchObject({ analysis: `us.${SONNET}`, quality: `us.${HAIKU}`, embedding: COHERE_EMBED });
    expect(invokable('dev', 'quality-worker')).toEqual(
      sorted(
        profile('us-east-1', `us.${HAIKU}`),
        profile('us-west-2', `us.${HAIKU}`),
        ...GEOGRAPHY_REGIONS.us.map((region) => foundation(region, HAIKU)),
      ),
    );
    const generation = invokable('dev', 'generation-worker');
    expect(only(generation, SONNET)).toEqual(
      sorted(
        profile('us-east-1', `us.${SONNET}`),
        profile('us-west-2', `us.${SONNET}`),
        ...['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'].map((region) => foundation(region, SONNET)),
      ),
    );
    expect(only(generation, COHERE_EMBED)).toEqual(sorted(foundation('us-east-1', COHERE_EMBED), foundation('us-west-2', COHERE_EMBED)));
    expect(generation).toHaveLength(8);
  });

  test('a foundation model id: that model in the two AI regions, no profile', () => {
    expect(only(invokable('foundationModel', 'generation-worker'), SONNET)).toEqual(
      sorted(foundation('us-east-1', SONNET), foundation('us-west-2', SONNET)),
    );
  });

  test('an EU profile in EU regions: the profile in both, the model in every EU destination region', () => {
    expect(only(invokable('euProfile', 'generation-worker'), SONNET)).toEqual(
      sorted(
        profile('eu-central-1', `eu.${SONNET}`),
        profile('eu-west-1', `eu.${SONNET}`),
        ...['eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3'].map((region) =>
          foundation(region, SONNET),
        ),
      ),
    );
  });

  test('a global profile: the profile and model in both AI regions plus the region-less model, and cdk-nag stays clean', () => {
    expect(() => synthesized('globalProfile')).not.toThrow(); // its synth ran cdk-nag, which throws on any unacknowledged finding
    expect(only(invokable('globalProfile', 'generation-worker'), SONNET)).toEqual(
      sorted(
        profile('us-east-1', `global.${SONNET}`),
        profile('us-west-2', `global.${SONNET}`),
        foundation('us-east-1', SONNET),
        foundation('us-west-2', SONNET),
        `arn:\${AWS::Partition}:bedrock:::foundation-model/${SONNET}`,
      ),
    );
  });

  test('a fallback region in another geography gets its own profile: us. in us-east-1, eu. in eu-west-1', () => {
    expect(only(invokable('fallbackInEurope', 'generation-worker'), SONNET)).toEqual(
      sorted(
        profile('us-east-1', `us.${SONNET}`),
        profile('eu-west-1', `eu.${SONNET}`),
        ...[...GEOGRAPHY_REGIONS.us, ...GEOGRAPHY_REGIONS.eu].map((region) => foundation(region, SONNET)),
      ),
    );
    // the configured id is what the function gets; the gateway re-prefixes per region
    const env = Object.values(resourcesOfType(synthesized('fallbackInEurope').templates.workers, 'AWS::Lambda::Function')).find(
      (r) => r.Properties.FunctionName === 'ias-dev-generation-worker',
    )!.Properties.Environment.Variables as Json;
    expect(env).toMatchObject({ AI_MODEL_ANALYSIS: `us.${SONNET}`, AI_FALLBACK_REGION: 'eu-west-1' });
  });
});

describe('synth refuses a model id it cannot use', () => {
  test.each(
    (
      [
        [
          'modelNotAnId',
          /^aiModelAnalysis: 'claude-sonnet-4-5' is not a Bedrock model id .*expected a foundation model id .*or a system inference profile id/,
        ],
        ['unknownGeography', /^aiModelQuality: .*unknown inference profile geography 'uk'/],
        ['modelArn', /^aiModelEmbedding: .*an ARN, not an id/],
        [
          'fallbackWithoutProfiles',
          /^aiModelAnalysis cannot be used in aiFallbackRegion sa-east-1: .*has no geographic inference profiles/,
        ],
        ['globalProfileInGovCloud', /^aiModelAnalysis cannot be used in aiPrimaryRegion us-gov-west-1: .*only commercial AWS regions/],
        [
          'embeddingTooWide',
          /^aiModelEmbedding: 'cohere.embed-v4:0' gives 1536-dimensional vectors, and text_chunks.embedding is vector\(1024\)/,
        ],
        ['embeddingNotCohere', /^aiModelEmbedding: 'amazon.titan-embed-text-v2:0' is not an embedding model the service can call/],
      ] as const
    ).map(([stage, message]) => [stage, STAGES[stage], message] as const),
  )('%s: %j', (stage, _context, message) => {
    expect(() => synthesized(stage)).toThrow(message);
  });
});
