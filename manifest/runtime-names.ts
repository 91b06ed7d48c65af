/**
 * Names and defaults the CDK stacks, the local twin and the runtime (layers/core) all use: environment
 * variable names, pinned model ids, the Cognito admin group, and the log markers and metric the alarms
 * read. Pure data with no imports, so `lib/stacks` and `bin/app.ts` can read them without loading a
 * runtime module (test/infra/app-imports.test.ts checks it). The runtime parses the variables in
 * layers/core/config.ts; the README's configuration table gives each one's default and meaning.
 */

/** Names of the environment variables the deployed functions receive (each only those its manifest entry needs). */
export const ENV = {
  functionId: 'FUNCTION_ID',
  /** the function's own facts from the manifest, as JSON (FunctionFacts: routes, timeout, resources): the stacks write it */
  functionFacts: 'FUNCTION_FACTS',
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
  ingestionQueueUrl: 'INGESTION_QUEUE_URL',
  importsQueueUrl: 'IMPORTS_QUEUE_URL',
  embeddingQueueUrl: 'EMBEDDING_QUEUE_URL',
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
  /** rate limits per class over ratelimit/limits.ts's defaults (CDK context rateLimits) */
  rateLimits: 'RATE_LIMITS',
  /** the per-organization cap on concurrent generations, overriding ratelimit/generation-cap.ts's 10 (CDK context generationCap) */
  generationCap: 'GENERATION_CAP',
  /** failed sign-ins per account name: `count/seconds` or `off` (auth/account-limit.ts) */
  signInAccountLimit: 'SIGN_IN_ACCOUNT_LIMIT',
  /** days to keep each record category, over operations/retention.ts's defaults (0 keeps for ever) */
  retentionAiCallsDays: 'RETENTION_AI_CALLS_DAYS',
  retentionAuditLogDays: 'RETENTION_AUDIT_LOG_DAYS',
  retentionAuditFailuresDays: 'RETENTION_AUDIT_FAILURES_DAYS',
  retentionJobRunsDays: 'RETENTION_JOB_RUNS_DAYS',
  retentionFailedAnalysesDays: 'RETENTION_FAILED_ANALYSES_DAYS',
  /** pinned model ids per purpose (defaults: DEFAULT_AI_MODELS) */
  aiModelAnalysis: 'AI_MODEL_ANALYSIS',
  aiModelQuality: 'AI_MODEL_QUALITY',
  aiModelJudge: 'AI_MODEL_JUDGE',
  aiModelEmbedding: 'AI_MODEL_EMBEDDING',
  /**
   * 'strict': every answer an HTTP route gives is checked against its contract's response schema, and one
   * that breaks it is a 500 (the local twin and the tests set it, so every end-to-end test checks the
   * contracts; a deployed stage leaves it unset and pays nothing)
   */
  responseValidation: 'RESPONSE_VALIDATION',
  /** Powertools' service name: the `service` of every log line and trace, and the dimension of the service's metrics (SERVICE_METRICS) */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** the SDK's endpoint overrides (the twin's AWS stand-ins, tools run outside a function) */
  s3Endpoint: 'AWS_ENDPOINT_URL_S3',
  sqsEndpoint: 'AWS_ENDPOINT_URL_SQS',
  cognitoEndpoint: 'AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER',
  bedrockEndpoint: 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
  awsRegion: 'AWS_REGION',
  /** the function role's credentials, as Lambda hands them to a function: what it presigns with (layers/core/aws/presigned-url.ts) */
  awsAccessKeyId: 'AWS_ACCESS_KEY_ID',
  awsSecretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  awsSessionToken: 'AWS_SESSION_TOKEN',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];

/** The variable holding each queue's URL (the queues of manifest/service.ts). */
export const QUEUE_URL_ENV = {
  generation: ENV.generationQueueUrl,
  quality: ENV.qualityQueueUrl,
  ingestion: ENV.ingestionQueueUrl,
  imports: ENV.importsQueueUrl,
  embedding: ENV.embeddingQueueUrl,
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
 * analysis, and a model of its own keeps them off the analysis model's per-model quota. Embeddings use
 * Cohere Embed (up to 96 texts a request, 1024 dimensions: the vector column; ai/models.ts
 * embeddingModelProblem refuses a model that does not fit it).
 */
export const DEFAULT_AI_MODELS: AiModels = {
  analysis: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  quality: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
  judge: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  embedding: 'cohere.embed-english-v3',
};

export const AI_MODEL_ENV = {
  analysis: ENV.aiModelAnalysis,
  quality: ENV.aiModelQuality,
  judge: ENV.aiModelJudge,
  embedding: ENV.aiModelEmbedding,
} as const satisfies Record<keyof AiModels, EnvName>;

/** The Cognito group whose members are administrators (identity stack, token claims, onboarding). */
export const ADMIN_GROUP = 'admin';

/** The service's name: Powertools' `service` (POWERTOOLS_SERVICE_NAME) is it plus the stage in AWS, and it alone elsewhere. */
export const SERVICE_NAME = 'investigation-analysis';

/** Log markers of the spec: an audit row not written, a quality check given up, a retention run. Each comes with its metric (SERVICE_METRICS). */
export const AUDIT_FAILURE_MARKER = '[AUDIT FAILURE]';
export const QUALITY_FAILURE_MARKER = '[QUALITY_CHECK_FAILURE]';
export const RETENTION_LOG_MARKER = 'RetentionCronLastRun';

/**
 * The service's own CloudWatch metrics, published as EMF (layers/core/metrics.ts) where the code writes
 * the matching log marker; the alarms and the dashboard read them. Every metric has the dimension
 * `service` (POWERTOOLS_SERVICE_NAME: per stage, so two stages in one account never feed each other's
 * alarms); the AI ones also `Region`.
 */
export const SERVICE_METRICS = {
  namespace: 'InvestigationAnalysis',
  /** Powertools always adds it */
  dimension: 'service',
  regionDimension: 'Region',
  names: {
    /** Bedrock throttled a call ([AI:Throttle]); Region: the region called */
    aiThrottles: 'AiThrottles',
    /** an attempt aborted at its attempt timeout ([AI:Timeout]); Region: the region called */
    aiTimeouts: 'AiTimeouts',
    /** a call fell back to the secondary region ([AI:fallback]); Region: the region it fell back from */
    aiFallbacks: 'AiFallbacks',
    /** the shedder refused a quality call ([AI:Shed]); Region: the region it would have gone to */
    aiSheds: 'AiSheds',
    /** AI work sent back to wait for its organization's quota share ([AI:QuotaFull]) */
    aiQuotaWaits: 'AiQuotaWaits',
    auditFailures: 'AuditFailures',
    qualityCheckFailures: 'QualityCheckFailures',
    /** a request or sign-in refused by a rate limit ([RATE_LIMIT] … refused) */
    rateLimitRefusals: 'RateLimitRefusals',
    /** a retention sweep completed (RetentionCronLastRun) */
    retentionRuns: 'RetentionCronLastRun',
    /** embedding sources still pending 24 h after a sweep (layers/core/embeddings/metrics.ts) */
    pendingOver24h: 'PendingOver24hAfterSweep',
  },
} as const;

export type ServiceMetric = keyof typeof SERVICE_METRICS.names;

/** Where files arrive by presigned upload, by kind: the queues of manifest/service.ts hear of them by these prefixes. */
export const FILE_PREFIXES = { evidence: 'org/', imports: 'imports/', seeds: 'seeds/' } as const;
