/**
 * Runtime configuration, read from the environment once. The CDK stacks set these variables on each
 * Lambda (only those its manifest entry needs); the local twin runs each function with exactly those.
 * Every variable, its default and its meaning is in the README's configuration table.
 */
export const env = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

export const requireEnv = (name: string): string => {
  const value = env(name);
  if (value === undefined) throw new Error(`environment variable ${name} is not set`);
  return value;
};

export const intEnv = (name: string, fallback: number): number => {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`environment variable ${name} must be an integer, got '${raw}'`);
  return value;
};

/** Names of the environment variables the deployed functions receive, shared by CDK and the twin. */
export const ENV = {
  functionId: 'FUNCTION_ID',
  /** full connection string for real PostgreSQL (twin, CI, or a direct connection) */
  databaseUrl: 'DATABASE_URL',
  /**
   * AWS: the RDS Proxy endpoint, the database and the database user the proxy's secret holds; functions sign
   * in as that user with an IAM auth token (layers/core/aws/rds-auth-token.ts), never with the secret's password
   */
  dbHost: 'DB_HOST',
  dbName: 'DB_NAME',
  dbUser: 'DB_USER',
  /** embedded PGlite data folder when neither DATABASE_URL nor DB_HOST is set */
  dataDir: 'DATA_DIR',
  filesBucket: 'FILES_BUCKET',
  generationQueueUrl: 'GENERATION_QUEUE_URL',
  qualityQueueUrl: 'QUALITY_QUEUE_URL',
  aiPrimaryRegion: 'AI_PRIMARY_REGION',
  aiFallbackRegion: 'AI_FALLBACK_REGION',
  /** Secrets Manager ARNs: the cron routes' bearer secret, the payment webhook's signing secret */
  cronSecretArn: 'CRON_SECRET_ARN',
  webhookSecretArn: 'WEBHOOK_SECRET_ARN',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /** JWT verification for in-handler checks (cron routes accept an admin token too) */
  jwtIssuer: 'JWT_ISSUER',
  jwtAudience: 'JWT_AUDIENCE',
  /** 'true' switches the throttle shedder off (quality calls are then never shed) */
  aiShedderDisabled: 'AI_SHEDDER_DISABLED',
  /** the lease a worker holds an analysis with, overriding analysis/lease.ts's 60 s (CDK context analysisLeaseSeconds) */
  analysisLeaseSeconds: 'ANALYSIS_LEASE_SECONDS',
  /** the similarity floor of retrieval, overriding analysis/retrieval.ts's 0.20 (CDK context retrievalMinSimilarity) */
  retrievalMinSimilarity: 'RETRIEVAL_MIN_SIMILARITY',
  /** per-purpose Bedrock attempt timeouts, overriding ai/timeouts.ts (CDK context aiAttemptTimeoutMs) */
  aiAttemptTimeoutMs: 'AI_ATTEMPT_TIMEOUT_MS',
  /** pinned model ids per purpose (defaults: DEFAULT_AI_MODELS) */
  aiModelAnalysis: 'AI_MODEL_ANALYSIS',
  aiModelQuality: 'AI_MODEL_QUALITY',
  aiModelJudge: 'AI_MODEL_JUDGE',
  aiModelEmbedding: 'AI_MODEL_EMBEDDING',
  /** the SDK's endpoint override for Bedrock Runtime (the eval CLI against a local stand-in) */
  bedrockEndpoint: 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
} as const;

export interface AiModels {
  analysis: string;
  quality: string;
  judge: string;
  embedding: string;
}

/**
 * Pinned model ids: the code defaults, overridden per deployment (CDK context → AI_MODEL_* variables).
 * Changing one needs the pre-flight checklist in the README. Ids are foundation model ids or system
 * inference profile ids (ai/models.ts): current Anthropic models are served only through a profile, and
 * the gateway calls each region with the profile valid there. Quality checks (two per analysis, shed
 * first under throttling) use Haiku: scoring passages against claims needs less than writing the
 * analysis, and a model of its own keeps them off the analysis model's per-model quota.
 */
export const DEFAULT_AI_MODELS: AiModels = {
  analysis: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  quality: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
  judge: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  embedding: 'amazon.titan-embed-text-v2:0',
};

export const AI_MODEL_ENV: Record<keyof AiModels, string> = {
  analysis: ENV.aiModelAnalysis,
  quality: ENV.aiModelQuality,
  judge: ENV.aiModelJudge,
  embedding: ENV.aiModelEmbedding,
};
