/**
 * Per-stage settings of the CDK app, read from CDK context: `-c key=value` on the command line, or the
 * stage's block in cdk.json (`"ias:prod": { "corsOrigin": "https://app.example.com" }`). Defaults live
 * here; nothing account-specific is hard-coded (stacks are environment-agnostic and deploy to whatever
 * account/region the CLI's credentials name). docs/deploy.md lists every key.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { embeddingModelProblem, modelIdForRegion, parseModelId } from '#core/ai/models';
import { parseAttemptTimeouts } from '#core/ai/timeouts';
import { parseMinSimilarity } from '#core/analysis/similarity-floor';
import { parseRateLimits } from '#core/ratelimit/limits';
import { parseAlarmOverrides, type AlarmOverrides } from './alarms';
import { stagePrefix } from '#manifest';
import { DEFAULT_AI_MODELS, type AiModels } from '#manifest/runtime-names';

const STAGES = ['dev', 'prod'] as const;
type Stage = (typeof STAGES)[number];

const MFA_MODES = ['optional', 'required'] as const;
type MfaMode = (typeof MFA_MODES)[number];

export interface StageConfig {
  stage: Stage;
  /** prefix of stack names and of the few resources with a fixed name, e.g. `ias-dev` */
  prefix: string;
  /** attemptTimeoutMs: context `aiAttemptTimeoutMs` as given (validated), for AI_ATTEMPT_TIMEOUT_MS (layers/core/ai/timeouts.ts) */
  ai: { primaryRegion: string; fallbackRegion: string; models: AiModels; attemptTimeoutMs?: string };
  /**
   * The SPA's origin (CORS on the API, the passkey relying party id) when it is a custom domain
   * (context `corsOrigin`). Unset: the web stack's distribution, `https://<id>.cloudfront.net` (buildApp).
   */
  corsOrigin?: string;
  /** for stateful resources (database, buckets, user pool, secrets, log groups) */
  removalPolicy: RemovalPolicy;
  /** retention of every log group the app creates (functions, API access, flow logs, database) */
  logRetention: RetentionDays;
  /**
   * NATs of the VPC. Cognito (sign-in proxies, JWKS), Lambda Insights telemetry and the cross-region Bedrock
   * fallback leave through a NAT, and so do Secrets Manager, SQS and the primary region's Bedrock where the stage
   * has no interface endpoints (`endpointZones`; S3 has its gateway endpoint): docs/deploy.md. Dev has one (if
   * its AZ fails, so does that egress); prod has one per AZ so sign-in survives an AZ outage. No more are ever needed.
   */
  natGateways: number;
  /**
   * An EC2 instance type: the NATs are instances of it (CDK's NAT instance, Amazon Linux 2023) rather than NAT
   * gateways. Dev's one t4g.nano costs $3.71 a month with its root volume against a gateway's $32.85, and forwards
   * what a dev sends (up to 5 Gbit/s in bursts); if it stops, the VPC's functions lose what is outside until it is
   * started again, as they lose a gateway's zone. Prod: gateways (managed, scaling, no instance to patch).
   */
  natInstanceType?: string;
  /**
   * Zones the interface endpoints (Secrets Manager, SQS, Bedrock) have a network interface in: each costs $7.30 a
   * month per zone (docs/cost.md). Prod has one per zone. Dev has none: its functions reach those services over
   * its NAT, as they reach Cognito and the fallback region, which saves $21.90 a month; a dev's traffic costs cents
   * there ($0.045 a GB), and its one NAT is already what they all lose if its zone fails.
   */
  endpointZones: number;
  /**
   * How often the health canary reads `GET /api/health`, in minutes; its alarm reads each run (two failed in a row
   * page). A run costs $0.0012 (docs/cost.md): every 5 minutes is $10.51 a month. Prod reads every 5 minutes; dev
   * every 30 ($1.75), so a dev outage pages within the hour.
   */
  canaryMinutes: number;
  /**
   * The functions whose container CPU and memory the stage alarms on (the spec's 75 % and 80 % for 10 minutes):
   * those with at least this much memory. A function's pair reads three metrics, $0.30 a month (docs/cost.md), $19.50
   * for all 65. Prod: every function (0). Dev: the eight sized for heavy work (1024 MB: the queue workers, the
   * embedding sweeper, the operator import and text extraction), $17.10 a month less; what a request handler's CPU
   * and memory do under one developer's traffic is nothing to page for, and its failures still raise the API's 5xx
   * alarm. The dashboard graphs every function's CPU and memory on both stages.
   */
  computeAlarmMinMemoryMb: number;
  database: { instanceType: string; multiAz: boolean; deletionProtection: boolean; backupRetentionDays: number };
  /** Cognito feature plan: `plus` adds threat protection (priced per monthly active user) */
  cognitoPlan: 'essentials' | 'plus';
  /**
   * `optional`: users may enrol a TOTP app, passkeys are a first factor. `required`: every sign-in needs
   * TOTP, and Cognito then offers no passkey first factor (docs/deploy.md says when to switch).
   */
  mfa: MfaMode;
  /** RATE_LIMITS and GENERATION_CAP overrides for the functions (unset: the code's documented defaults) */
  limits: { rateLimits?: string; generationCap?: number };
  /**
   * The lease a worker holds an analysis with (layers/core/analysis/lease.ts; unset: 60 s): how soon a
   * crashed worker's analysis is taken over by its returning message. Context `analysisLeaseSeconds`.
   */
  analysisLeaseSeconds?: number;
  /**
   * The similarity floor of retrieval (layers/core/analysis/retrieval.ts; unset: 0.20): chunks below it are
   * left out of an analysis's context, unless none reaches it. Context `retrievalMinSimilarity`.
   */
  retrievalMinSimilarity?: number;
  /**
   * The HTTP API stage's per-route and default throttles (lib/stacks/api-stack.ts). Context
   * `gatewayThrottles=off` leaves them out, and then only the account-level API Gateway quota applies:
   * for tests that send many requests in a moment (the twin does not model the account quota).
   */
  gatewayThrottles: boolean;
  /** alarm threshold overrides (context `alarmThresholds`; the defaults are the table in lib/alarms.ts) */
  alarms: AlarmOverrides;
  /** addresses subscribed to the alarm topic by email (context `alarmEmails`, comma-separated); each confirms once */
  alarmEmails: string[];
  /** the API on its own hostname (contexts `apiDomainName` + `apiCertificateArn`, an ACM certificate of the stack's region) */
  apiDomain?: { name: string; certificateArn: string };
  /**
   * The user pool's e-mail (invitations, temporary passwords, resets) through SES, from an identity verified in
   * `sesRegion` (contexts `sesFromEmail`, `sesRegion`, and `sesVerifiedDomain` when the verified identity is the
   * address's domain). Required in prod: Cognito's own e-mail stops at 50 messages a day. Unset in dev: Cognito's.
   */
  email?: { fromEmail: string; sesRegion: string; verifiedDomain?: string };
}

const PER_STAGE: Record<
  Stage,
  Omit<
    StageConfig,
    'stage' | 'prefix' | 'ai' | 'corsOrigin' | 'limits' | 'gatewayThrottles' | 'alarms' | 'alarmEmails' | 'apiDomain' | 'email'
  >
> = {
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.ONE_MONTH,
    natGateways: 1,
    natInstanceType: 't4g.nano',
    endpointZones: 0,
    canaryMinutes: 30,
    computeAlarmMinMemoryMb: 1024,
    database: { instanceType: 't4g.micro', multiAz: false, deletionProtection: false, backupRetentionDays: 1 },
    cognitoPlan: 'essentials',
    mfa: 'optional',
  },
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.ONE_YEAR,
    natGateways: 2,
    endpointZones: 2,
    canaryMinutes: 5,
    computeAlarmMinMemoryMb: 0,
    database: { instanceType: 'm7g.large', multiAz: true, deletionProtection: true, backupRetentionDays: 14 },
    cognitoPlan: 'plus',
    mfa: 'optional',
  },
};

/** An e-mail address (alarmEmails, sesFromEmail); its domain is group 1. */
const ADDRESS = /^[^\s@,<>]+@([^\s@,<>]+\.[^\s@,<>]+)$/;

/** Context keys the app reads (all optional; see the defaults above). */
const CONTEXT = {
  stage: 'stage',
  corsOrigin: 'corsOrigin',
  aiPrimaryRegion: 'aiPrimaryRegion',
  aiFallbackRegion: 'aiFallbackRegion',
  aiModelAnalysis: 'aiModelAnalysis',
  aiModelQuality: 'aiModelQuality',
  aiModelJudge: 'aiModelJudge',
  aiModelEmbedding: 'aiModelEmbedding',
  aiAttemptTimeoutMs: 'aiAttemptTimeoutMs',
  rateLimits: 'rateLimits',
  gatewayThrottles: 'gatewayThrottles',
  generationCap: 'generationCap',
  analysisLeaseSeconds: 'analysisLeaseSeconds',
  retrievalMinSimilarity: 'retrievalMinSimilarity',
  alarmThresholds: 'alarmThresholds',
  alarmEmails: 'alarmEmails',
  apiDomainName: 'apiDomainName',
  apiCertificateArn: 'apiCertificateArn',
  sesFromEmail: 'sesFromEmail',
  sesRegion: 'sesRegion',
  sesVerifiedDomain: 'sesVerifiedDomain',
  logRetentionDays: 'logRetentionDays',
  databaseInstanceType: 'databaseInstanceType',
  mfa: 'mfa',
} as const;

/**
 * The settings stage prod refuses to synthesize without, with example values as an operator records them in its
 * cdk.json block (docs/deploy.md): `npm run cost` and the tests synthesize prod with them.
 */
export const PROD_EXAMPLE_SETTINGS = {
  alarmEmails: 'oncall@example.com',
  sesFromEmail: 'no-reply@example.com',
  sesRegion: 'us-east-1',
  sesVerifiedDomain: 'example.com',
} as const;

/** Context key of a stage's settings block in cdk.json, e.g. `ias:prod`. */
const stageContextKey = (stage: string): string => `ias:${stage}`;

export const stageConfig = (node: Node): StageConfig => {
  // `-c key=value` wins, then the stage's block in cdk.json (`"ias:prod": { "corsOrigin": "https://…" }`), then the defaults here
  const stageBlock = (): Record<string, unknown> =>
    node.tryGetContext(stageContextKey(String(node.tryGetContext(CONTEXT.stage) ?? 'dev'))) ?? {};
  const ctx = (key: keyof typeof CONTEXT): string | undefined => {
    const value: unknown = node.tryGetContext(CONTEXT[key]) ?? stageBlock()[CONTEXT[key]];
    return value === undefined || value === '' ? undefined : String(value);
  };
  const stage = ctx('stage') ?? 'dev';
  if (!(STAGES as readonly string[]).includes(stage)) throw new Error(`unknown stage '${stage}' (expected ${STAGES.join(' or ')})`);
  const corsOrigin = ctx('corsOrigin');
  // unset, it is the distribution's https origin; a custom one in prod must be https too
  if (stage === 'prod' && corsOrigin !== undefined && !corsOrigin.startsWith('https://')) {
    throw new Error(
      `stage 'prod' serves the SPA over https: -c corsOrigin=https://app.example.com (or no corsOrigin: the web stack's distribution), got '${corsOrigin}'`,
    );
  }
  const rateLimits = ctx('rateLimits');
  if (rateLimits) parseRateLimits(rateLimits); // a malformed value fails the synth, not the first request
  const gatewayThrottles = ctx('gatewayThrottles') ?? 'on';
  if (!['on', 'off'].includes(gatewayThrottles)) throw new Error(`gatewayThrottles must be on or off, got '${gatewayThrottles}'`);
  const generationCap = ctx('generationCap');
  if (generationCap !== undefined && !(Number.isInteger(Number(generationCap)) && Number(generationCap) >= 1)) {
    throw new Error(`generationCap must be an integer of at least 1, got '${generationCap}'`);
  }
  const analysisLeaseSeconds = ctx('analysisLeaseSeconds');
  // at least 5 s: the worker renews every third of it, and each renewal is a database round trip
  if (
    analysisLeaseSeconds !== undefined &&
    !(Number.isInteger(Number(analysisLeaseSeconds)) && Number(analysisLeaseSeconds) >= 5 && Number(analysisLeaseSeconds) <= 300)
  ) {
    throw new Error(`analysisLeaseSeconds must be an integer from 5 to 300, got '${analysisLeaseSeconds}'`);
  }
  const floor = ctx('retrievalMinSimilarity');
  let retrievalMinSimilarity: number | undefined;
  try {
    retrievalMinSimilarity = floor === undefined ? undefined : parseMinSimilarity(floor); // a malformed value fails the synth
  } catch (error) {
    throw new Error(`retrievalMinSimilarity: ${(error as Error).message}`, { cause: error });
  }
  const defaults = PER_STAGE[stage as Stage];
  const logRetentionDays = ctx('logRetentionDays');
  if (logRetentionDays !== undefined && !Object.values(RetentionDays).includes(Number(logRetentionDays))) {
    throw new Error(
      `logRetentionDays must be a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, …, 3653 days), got '${logRetentionDays}'`,
    );
  }
  const instanceType = ctx('databaseInstanceType');
  if (instanceType !== undefined && !/^[a-z][a-z0-9-]*\.[a-z0-9]+$/.test(instanceType)) {
    throw new Error(`databaseInstanceType is an RDS class without the db. prefix, e.g. m7g.large, got '${instanceType}'`);
  }
  const alarmEmails = (ctx('alarmEmails') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  const notAnAddress = alarmEmails.filter((address) => !ADDRESS.test(address));
  if (notAnAddress.length > 0)
    throw new Error(`alarmEmails is a comma-separated list of email addresses; not one: ${notAnAddress.join(', ')}`);
  if (stage === 'prod' && alarmEmails.length === 0) {
    throw new Error(
      `stage 'prod' needs the on-call addresses its alarms notify (an alarm topic with no subscriber pages no one): -c alarmEmails=oncall@example.com,ops@example.com, or "${stageContextKey('prod')}": { "alarmEmails": "…" } in cdk.json`,
    );
  }
  const apiDomain = apiDomainOf(ctx('apiDomainName'), ctx('apiCertificateArn'));
  const email = emailOf(stage, ctx('sesFromEmail'), ctx('sesRegion'), ctx('sesVerifiedDomain'));
  const mfa = ctx('mfa') ?? defaults.mfa;
  if (!(MFA_MODES as readonly string[]).includes(mfa)) throw new Error(`mfa must be ${MFA_MODES.join(' or ')}, got '${mfa}'`);
  const attemptTimeoutMs = ctx('aiAttemptTimeoutMs');
  if (attemptTimeoutMs !== undefined) parseAttemptTimeouts(attemptTimeoutMs); // a malformed value fails the synth
  const ai = checkedAi({
    primaryRegion: ctx('aiPrimaryRegion') ?? 'us-east-1',
    fallbackRegion: ctx('aiFallbackRegion') ?? 'us-west-2',
    models: {
      analysis: ctx('aiModelAnalysis') ?? DEFAULT_AI_MODELS.analysis,
      quality: ctx('aiModelQuality') ?? DEFAULT_AI_MODELS.quality,
      judge: ctx('aiModelJudge') ?? DEFAULT_AI_MODELS.judge,
      embedding: ctx('aiModelEmbedding') ?? DEFAULT_AI_MODELS.embedding,
    },
    ...(attemptTimeoutMs !== undefined && { attemptTimeoutMs }),
  });
  return {
    stage: stage as Stage,
    prefix: stagePrefix(stage),
    ai,
    ...(corsOrigin !== undefined && { corsOrigin }),
    limits: { ...(rateLimits && { rateLimits }), ...(generationCap !== undefined && { generationCap: Number(generationCap) }) },
    gatewayThrottles: gatewayThrottles === 'on',
    ...(analysisLeaseSeconds !== undefined && { analysisLeaseSeconds: Number(analysisLeaseSeconds) }),
    ...(retrievalMinSimilarity !== undefined && { retrievalMinSimilarity }),
    ...defaults,
    ...(logRetentionDays !== undefined && { logRetention: Number(logRetentionDays) as RetentionDays }),
    ...(instanceType !== undefined && { database: { ...defaults.database, instanceType } }),
    mfa: mfa as MfaMode,
    alarms: parseAlarmOverrides(node.tryGetContext(CONTEXT.alarmThresholds)),
    alarmEmails: [...new Set(alarmEmails)],
    ...(apiDomain && { apiDomain }),
    ...(email && { email }),
  };
};

/** The user pool's SES e-mail of the stage, checked: both the address and the SES region, or neither (and never neither in prod). */
const emailOf = (stage: string, fromEmail?: string, sesRegion?: string, verifiedDomain?: string): StageConfig['email'] => {
  if (fromEmail === undefined && sesRegion === undefined && verifiedDomain === undefined) {
    if (stage !== 'prod') return undefined;
    throw new Error(
      `stage 'prod' sends its invitations, temporary passwords and password resets through SES (Cognito's own e-mail stops at 50 a day): ` +
        `-c sesFromEmail=no-reply@example.com -c sesRegion=us-east-1, an SES identity verified in that region (the address, ` +
        `or its domain with -c sesVerifiedDomain=example.com), or "${stageContextKey('prod')}": { "sesFromEmail": "…", "sesRegion": "…" } in cdk.json`,
    );
  }
  const address = fromEmail?.match(ADDRESS);
  if (!address)
    throw new Error(`sesFromEmail is the address the user pool sends from, e.g. no-reply@example.com, got '${fromEmail ?? ''}'`);
  if (sesRegion === undefined || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(sesRegion))
    throw new Error(`sesRegion is the region where sesFromEmail's SES identity is verified, e.g. us-east-1, got '${sesRegion ?? ''}'`);
  if (verifiedDomain !== undefined && verifiedDomain !== address[1])
    throw new Error(`sesVerifiedDomain must be the domain of sesFromEmail (${address[1]}), got '${verifiedDomain}'`);
  return { fromEmail: fromEmail!, sesRegion, ...(verifiedDomain !== undefined && { verifiedDomain }) };
};

const MODEL_CONTEXT: Record<keyof AiModels, keyof typeof CONTEXT> = {
  analysis: 'aiModelAnalysis',
  quality: 'aiModelQuality',
  judge: 'aiModelJudge',
  embedding: 'aiModelEmbedding',
};

/**
 * Every model id must be well-formed and callable from both AI regions (an inference profile gets the
 * fallback region's geography there), and the embedding model must give vectors the size of the vector column:
 * a bad id fails the synth, not the first analysis after a deploy.
 */
const checkedAi = (ai: StageConfig['ai']): StageConfig['ai'] => {
  const failing = (what: string, check: () => unknown) => {
    try {
      check();
    } catch (error) {
      throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
    }
  };
  for (const [purpose, id] of Object.entries(ai.models) as [keyof AiModels, string][]) {
    const key = CONTEXT[MODEL_CONTEXT[purpose]];
    failing(key, () => parseModelId(id));
    failing(`${key} cannot be used in ${CONTEXT.aiPrimaryRegion} ${ai.primaryRegion}`, () => modelIdForRegion(id, ai.primaryRegion));
    failing(`${key} cannot be used in ${CONTEXT.aiFallbackRegion} ${ai.fallbackRegion}`, () => modelIdForRegion(id, ai.fallbackRegion));
  }
  const embedding = embeddingModelProblem(ai.models.embedding);
  if (embedding) throw new Error(`${CONTEXT.aiModelEmbedding}: ${embedding}`);
  return ai;
};

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/;

/** Both or neither: a hostname, and the ARN of an ACM certificate for it in the stack's region. */
const apiDomainOf = (name: string | undefined, certificateArn: string | undefined): StageConfig['apiDomain'] => {
  if (name === undefined && certificateArn === undefined) return undefined;
  if (name === undefined || certificateArn === undefined) {
    throw new Error(
      "apiDomainName and apiCertificateArn go together: the hostname and the ARN of its ACM certificate (in the API's region)",
    );
  }
  if (!HOSTNAME.test(name)) throw new Error(`apiDomainName must be a lower-case hostname such as api.example.com, got '${name}'`);
  if (!CERTIFICATE_ARN.test(certificateArn)) {
    throw new Error(
      `apiCertificateArn must be an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>), got '${certificateArn}'`,
    );
  }
  return { name, certificateArn };
};
