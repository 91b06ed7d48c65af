/**
 * Per-stage settings of the CDK app, read from CDK context (`cdk synth -c stage=prod -c corsOrigin=…`).
 * Defaults live here; nothing account-specific is hard-coded (stacks are environment-agnostic and
 * deploy to whatever account/region the CLI's credentials name).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { DEFAULT_AI_MODELS, type AiModels } from '../layers/core/config';
import { parseRateLimits } from '../layers/core/ratelimit/limits';

export type { AiModels };

export const STAGES = ['dev', 'prod'] as const;
export type Stage = (typeof STAGES)[number];

export interface StageConfig {
  stage: Stage;
  /** prefix of stack names and of the few resources with a fixed name, e.g. `ias-dev` */
  prefix: string;
  ai: { primaryRegion: string; fallbackRegion: string; models: AiModels };
  /** origin of the SPA allowed by CORS */
  corsOrigin: string;
  /** for stateful resources (database, buckets, user pool, secrets, log groups) */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /**
   * NAT gateways of the VPC. AWS services the functions call (Secrets Manager, SQS, Bedrock in the
   * primary region, S3) go through VPC endpoints; only Cognito (sign-in proxies, JWKS) and the
   * cross-region Bedrock fallback leave through a NAT. Dev has one (if its AZ fails, so does that
   * egress); prod has one per AZ so sign-in survives an AZ outage. No more are ever needed.
   */
  natGateways: number;
  database: { instanceType: string; multiAz: boolean; deletionProtection: boolean; backupRetentionDays: number };
  /** Cognito feature plan: `plus` adds threat protection (priced per monthly active user) */
  cognitoPlan: 'essentials' | 'plus';
  /** RATE_LIMITS and GENERATION_CAP overrides for the functions (unset: the code's documented defaults) */
  limits: { rateLimits?: string; generationCap?: number };
}

const PER_STAGE: Record<Stage, Omit<StageConfig, 'stage' | 'prefix' | 'ai' | 'corsOrigin' | 'limits'>> = {
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.TWO_WEEKS,
    natGateways: 1,
    database: { instanceType: 't4g.micro', multiAz: false, deletionProtection: false, backupRetentionDays: 1 },
    cognitoPlan: 'essentials',
  },
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.ONE_YEAR,
    natGateways: 2,
    database: { instanceType: 'm7g.large', multiAz: true, deletionProtection: true, backupRetentionDays: 14 },
    cognitoPlan: 'plus',
  },
};

/** Context keys the app reads (all optional; see the defaults above). */
export const CONTEXT = {
  stage: 'stage',
  corsOrigin: 'corsOrigin',
  aiPrimaryRegion: 'aiPrimaryRegion',
  aiFallbackRegion: 'aiFallbackRegion',
  aiModelAnalysis: 'aiModelAnalysis',
  aiModelQuality: 'aiModelQuality',
  aiModelJudge: 'aiModelJudge',
  aiModelEmbedding: 'aiModelEmbedding',
  rateLimits: 'rateLimits',
  generationCap: 'generationCap',
} as const;

export const stageConfig = (node: Node): StageConfig => {
  const ctx = (key: keyof typeof CONTEXT): string | undefined => {
    const value: unknown = node.tryGetContext(CONTEXT[key]);
    return value === undefined || value === '' ? undefined : String(value);
  };
  const stage = ctx('stage') ?? 'dev';
  if (!(STAGES as readonly string[]).includes(stage)) throw new Error(`unknown stage '${stage}' (expected ${STAGES.join(' or ')})`);
  const corsOrigin = ctx('corsOrigin');
  if (stage === 'prod' && !corsOrigin?.startsWith('https://')) {
    throw new Error("stage 'prod' needs the SPA's https origin: -c corsOrigin=https://app.example.com");
  }
  const rateLimits = ctx('rateLimits');
  if (rateLimits) parseRateLimits(rateLimits); // a malformed value fails the synth, not the first request
  const generationCap = ctx('generationCap');
  if (generationCap !== undefined && !(Number.isInteger(Number(generationCap)) && Number(generationCap) >= 1)) {
    throw new Error(`generationCap must be an integer of at least 1, got '${generationCap}'`);
  }
  return {
    stage: stage as Stage,
    prefix: `ias-${stage}`,
    ai: {
      primaryRegion: ctx('aiPrimaryRegion') ?? 'us-east-1',
      fallbackRegion: ctx('aiFallbackRegion') ?? 'us-west-2',
      models: {
        analysis: ctx('aiModelAnalysis') ?? DEFAULT_AI_MODELS.analysis,
        quality: ctx('aiModelQuality') ?? DEFAULT_AI_MODELS.quality,
        judge: ctx('aiModelJudge') ?? DEFAULT_AI_MODELS.judge,
        embedding: ctx('aiModelEmbedding') ?? DEFAULT_AI_MODELS.embedding,
      },
    },
    corsOrigin: corsOrigin ?? 'http://localhost:5173',
    limits: { ...(rateLimits && { rateLimits }), ...(generationCap !== undefined && { generationCap: Number(generationCap) }) },
    ...PER_STAGE[stage as Stage],
  };
};
