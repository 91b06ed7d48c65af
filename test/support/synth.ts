/**
 * The app synthesized as `cdk synth` does (cdk.json's context plus a stage's own, cdk-nag and CloudFormation
 * validation included, bundling skipped), for the suites that only read templates or a synth's error, and
 * for the suites that synthesize in their own process without CloudFormation validation (./cdk-app.ts), to
 * assert that their stage passed it.
 *
 * Why not in the test file: the first synth in a process costs ~10 s of CPU (loading aws-cdk-lib, its
 * CloudFormation schemas and cdk-nag), each further one ~1.5 s. So the stages below are synthesized once
 * per source change, all in one process (./synth-stages.ts), which global-setup starts beside the tests;
 * a suite reads the result from node_modules/.cache/ias-twin/<app source hash>/ (pruned with the twin's
 * assemblies), waiting for that process if it is still at work, or synthesizing the stage itself if
 * none is. Keyed by the app's sources (the twin's hash), the synthesizer's own source and the context.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appSourceHash, CACHE_ROOT, hashFiles } from '../../lib/twin/assembly/assembly';
import { PROJECT_ROOT } from '../../lib/paths';
import { PROD_EXAMPLE_SETTINGS } from '../../lib/stage-config';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Bedrock model ids the model stages configure (test/infra/models.synth.test.ts expects their ARNs). */
export const SONNET = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
export const HAIKU = 'anthropic.claude-haiku-4-5-20251001-v1:0';
export const COHERE_EMBED = 'cohere.embed-english-v3';

/** An ACM certificate for the prod stage's API hostname. */
export const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0f3e1c2a-4b5d-4e6f-8a9b-0c1d2e3f4a5b';

/** Each stage's CDK context beside cdk.json's, by name; a suite names the stage it reads. */
export const STAGES = {
  dev: {},
  // test/infra/stacks.synth.test.ts: prod's settings from its block in cdk.json, as an operator records them
  prod: {
    stage: 'prod',
    'ias:prod': {
      corsOrigin: 'https://app.example.com',
      ...PROD_EXAMPLE_SETTINGS,
      aiFallbackRegion: 'eu-central-1',
      apiDomainName: 'api.example.com',
      apiCertificateArn: CERTIFICATE,
    },
  },
  requiredMfa: { mfa: 'required' },
  // test/infra/observability.synth.test.ts: overrides that must show in the alarms and leave every spec threshold alone
  alarmOverrides: {
    alarmThresholds: JSON.stringify({
      rules: { aiFallbacks: { threshold: 7 } },
      functions: { 'generation-worker': { computeMemory: 90 } },
    }),
    alarmEmails: 'oncall@example.com, ops@example.com,oncall@example.com',
  },
  // test/ratelimit/cdk-limits.synth.test.ts
  limitOverrides: { rateLimits: 'auth=10/60,investigator=300/60', generationCap: '4' },
  malformedRateLimits: { rateLimits: 'investigator=lots' },
  zeroGenerationCap: { generationCap: '0' },
  // test/ai/cdk-attempt-timeout.synth.test.ts
  attemptTimeouts: { aiAttemptTimeoutMs: 'analysis=60000,embedding=5000' },
  attemptTimeoutNotAList: { aiAttemptTimeoutMs: 'analysis=soon' },
  attemptTimeoutZero: { aiAttemptTimeoutMs: '0' },
  // test/analysis/cdk-retrieval-floor.synth.test.ts
  retrievalFloor: { retrievalMinSimilarity: '0.15' },
  retrievalFloorOutOfRange: { retrievalMinSimilarity: '1.5' },
  // test/infra/models.synth.test.ts
  foundationModel: { aiModelAnalysis: SONNET },
  euProfile: { aiPrimaryRegion: 'eu-central-1', aiFallbackRegion: 'eu-west-1', aiModelAnalysis: `eu.${SONNET}` },
  globalProfile: { aiModelAnalysis: `global.${SONNET}` },
  fallbackInEurope: { aiFallbackRegion: 'eu-west-1' },
  modelNotAnId: { aiModelAnalysis: 'claude-sonnet-4-5' },
  unknownGeography: { aiModelQuality: `uk.${HAIKU}` },
  modelArn: { aiModelEmbedding: `arn:aws:bedrock:us-east-1::foundation-model/${COHERE_EMBED}` },
  embeddingTooWide: { aiModelEmbedding: 'cohere.embed-v4:0' },
  embeddingNotCohere: { aiModelEmbedding: 'amazon.titan-embed-text-v2:0' },
  fallbackWithoutProfiles: { aiFallbackRegion: 'sa-east-1' },
  globalProfileInGovCloud: { aiPrimaryRegion: 'us-gov-west-1', aiModelAnalysis: `global.${SONNET}` },
} satisfies Record<string, Record<string, unknown>>;

export type StageName = keyof typeof STAGES;

/** The app's stacks as buildApp names them (ServiceApp's fields); the web stacks are absent from a synth without them. */
export const STACK_ROLES = ['data', 'identity', 'workers', 'api', 'schedules', 'observability'] as const;
export type StackRole = (typeof STACK_ROLES)[number];
export const WEB_ROLES = ['web', 'webContent'] as const;
type WebRole = (typeof WEB_ROLES)[number];

/**
 * A stage's synth: its resource name prefix, each stack's template and CloudFormation stack name by role,
 * and what the validation plugins (cdk-nag, CloudFormation validation) reported without failing the synth.
 */
export interface SynthesizedStage {
  prefix: string;
  templates: Record<StackRole, Json> & Partial<Record<WebRole, Json>>;
  stackNames: Record<StackRole, string> & Partial<Record<WebRole, string>>;
  /** the stacks each stack is deployed after, by stack name */
  dependencies: Record<string, string[]>;
  validationViolations: Json[];
}

/** What synth-stages.ts writes per stage: its synth, or the message the synth failed with. */
export type StageEntry = SynthesizedStage | { error: string };

const SYNTHESIZER = join(__dirname, 'synth-stages.ts');
/** the running synthesizer's pid, while it runs */
export const SYNTHESIZER_PID_FILE = 'synthesizer.pid';
/** written when every stage is in */
export const COMPLETE_FILE = 'complete';

/** This checkout's cache folder: the twin's folder for the app's sources, then the synthesizer's source. */
export const stagesDirectory = (): string =>
  join(
    CACHE_ROOT,
    appSourceHash(),
    `test-stages-${hashFiles(['synth.ts', 'synth-stages.ts', 'cdk-app.ts'].map((file) => join('test', 'support', file)))}`,
  );

export const stageFile = (dir: string, name: StageName): string =>
  join(dir, `${name}-${createHash('sha256').update(JSON.stringify(STAGES[name])).digest('hex').slice(0, 12)}.json`);

/** The command that synthesizes the given stages (all by default) into dir; run from the project root. */
export const synthesizerCommand = (dir: string, names: StageName[] = []): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', SYNTHESIZER, dir, ...names],
];

/** Whether a synthesizer started by global-setup is still writing into dir. */
export const isSynthesizerRunning = (dir: string): boolean => {
  try {
    process.kill(Number(readFileSync(join(dir, SYNTHESIZER_PID_FILE), 'utf8')), 0);
    return true;
  } catch {
    return false; // no pid file, or its process has ended
  }
};

/** How long a suite waits for global-setup's synthesizer before synthesizing a stage itself (all stages take ~30 s of CPU). */
const SYNTHESIZER_WAIT_MS = 180_000;

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const entries = new Map<StageName, StageEntry>();

const readEntry = (name: StageName): StageEntry => {
  const dir = stagesDirectory();
  const file = stageFile(dir, name);
  // a blocking wait (the suites read stages synchronously), so bounded: a hung synthesizer costs minutes, not the run
  const deadline = Date.now() + SYNTHESIZER_WAIT_MS;
  while (!existsSync(file) && isSynthesizerRunning(dir) && Date.now() < deadline) pause(200);
  if (!existsSync(file)) {
    // no synthesizer at work (none started, it failed or hung, or the sources changed since global-setup): this suite's own
    const [command, args] = synthesizerCommand(dir, [name]);
    execFileSync(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return JSON.parse(readFileSync(file, 'utf8')) as StageEntry;
};

/** The stage's synth; throws the synth's error if it failed. */
export const synthesized = (name: StageName): SynthesizedStage => {
  if (!entries.has(name)) entries.set(name, readEntry(name));
  const entry = entries.get(name)!;
  if ('error' in entry) throw new Error(entry.error);
  return entry;
};

/** The resources of one type in a template, by logical id. */
export const resourcesOfType = (template: Json, type: string): Record<string, Json> =>
  Object.fromEntries(Object.entries(template.Resources as Record<string, Json>).filter(([, r]) => r.Type === type));

/** Each function's environment variables by manifest id (the identity, API and worker stacks hold them all). */
export const functionEnvironments = (name: StageName): Map<string, Record<string, string>> => {
  const { templates } = synthesized(name);
  const env = new Map<string, Record<string, string>>();
  for (const role of ['identity', 'api', 'workers'] as const) {
    for (const resource of Object.values(resourcesOfType(templates[role], 'AWS::Lambda::Function'))) {
      const variables = (resource.Properties as { Environment: { Variables: Record<string, string> } }).Environment.Variables;
      env.set(variables.FUNCTION_ID!, variables);
    }
  }
  return env;
};

/** The reference a consumer template makes to a shared value (lib/stacks/shared-values.ts): its SSM-backed parameter. */
export const sharedRef = (template: Json, parameterName: string): Json => {
  const entry = Object.entries((template.Parameters ?? {}) as Record<string, Json>).find(([, p]) => p.Default === parameterName);
  if (!entry) throw new Error(`the template reads no shared value ${parameterName}`);
  return { Ref: entry[0] };
};

/** What a consumer's `{ Ref: <shared parameter> }` stands for: the value the producer's AWS::SSM::Parameter writes. */
export const sharedValueOf = (templates: Record<string, Json>, consumer: Json, value: Json): Json => {
  const parameter = (consumer.Parameters as Record<string, Json> | undefined)?.[value.Ref as string];
  if (parameter?.Type !== 'AWS::SSM::Parameter::Value<String>') throw new Error(`${JSON.stringify(value)} is not a shared value`);
  const writers = Object.values(templates).flatMap((t) =>
    Object.values(resourcesOfType(t, 'AWS::SSM::Parameter')).filter((p) => p.Properties.Name === parameter.Default),
  );
  if (writers.length !== 1) throw new Error(`${writers.length} stacks write ${parameter.Default}`);
  return writers[0]!.Properties.Value as Json;
};
