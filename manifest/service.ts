/**
 * The service manifest: every function the service deploys, with its triggers, limits and the
 * resources it uses. The CDK stacks (lib/stacks) and the local twin (lib/twin) both render this one
 * description; nothing is listed twice. Pure data, so it must not import CDK or any runtime dependency: tests and
 * tools read it from the core, and a few functions' bundles (the operations routes, the OpenAPI document); the
 * others get their own entry's facts in FUNCTION_FACTS (functionFacts, layers/core/function-facts.ts).
 */

import { FILE_PREFIXES } from './runtime-names';
import { ANALYSIS_WORKER_CONCURRENCY } from './ai-capacity';

/** Who may call an HTTP route. */
export type Access =
  /** anyone, no token (health, sign-in, signed webhooks) */
  | 'public'
  /** any signed-in user; handlers scope data to the caller's organization */
  | 'investigator'
  /** a signed-in member of the Cognito group `admin` */
  | 'admin'
  /** the scheduler's bearer secret (constant-time compare) or an admin token */
  | 'cron';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueueName = 'generation' | 'quality' | 'ingestion' | 'imports' | 'embedding';

/** Resources a function may touch; the CDK stacks grant exactly these and nothing else. */
export type Resource =
  | 'database'
  | 'filesBucket'
  | 'generationQueue'
  | 'qualityQueue'
  /** sends to the ingestion, imports and embedding queues (work to extract, the next part of an import, sources to embed) */
  | 'ingestionQueue'
  | 'importsQueue'
  | 'embeddingQueue'
  /** presigned uploads of evidence files (PutObject under org/, the URL signed by the function's role) */
  | 'fileUploads'
  /** presigned uploads of bulk import files (PutObject under imports/) */
  | 'importUploads'
  /** deletes the files of a deleted evidence item or background document (DeleteObject under org/) */
  | 'fileDeletes'
  /** read-only depths of both queues and their DLQs, and the AI regions (for the shedder status) */
  | 'queueStats'
  /** read-only attributes of both queues (not their DLQs): that SQS answers */
  | 'queueHealth'
  /** that the files bucket answers (HeadBucket), without reading a file */
  | 'filesBucketHealth'
  /** Bedrock in both AI regions, one pinned model each: analysis prompts, quality checks, Cohere embeddings */
  | 'bedrockAnalysis'
  | 'bedrockQuality'
  | 'bedrockEmbedding'
  | 'cronSecret'
  /** the pool and app client ids, for Cognito's public sign-in API (no IAM: ForgotPassword, software tokens) */
  | 'userPool'
  /** plus AdminInitiateAuth: starts a server-side sign-in */
  | 'userPoolInitiateAuth'
  /** plus AdminRespondToAuthChallenge: answers a sign-in challenge (MFA, passkey, new password) */
  | 'userPoolRespondToChallenge'
  /** seed files through the files bucket: presigned uploads and reads under seeds/, each investigation's import written under imports/ */
  | 'seedImports'
  /** onboarding: AdminCreateUser (with the immutable organization), AdminAddUserToGroup, AdminDeleteUser (undo) */
  | 'userPoolAdmin'
  | 'webhookSecret';

export interface HttpTrigger<M extends HttpMethod = HttpMethod, P extends ApiPath = ApiPath> {
  kind: 'http';
  method: M;
  /** API Gateway path syntax, e.g. /api/analysis/{analysis_id} */
  path: P;
  access: Access;
}

/** A path of the API: under /api/, with `{name}` for each path parameter. */
export type ApiPath = `/api/${string}`;

export interface QueueTrigger {
  kind: 'queue';
  queue: QueueName;
  batchSize: number;
  /** caps parallel invocations so a burst cannot exhaust the AI quota or the database pool */
  maxConcurrency: number;
}

export interface ScheduleTrigger {
  kind: 'schedule';
  /** EventBridge Scheduler expression, `rate(...)` form so the twin can run it on a timer */
  expression: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours' | 'day' | 'days'})`;
}

/** A user pool trigger: Cognito invokes the function during sign-in (deployed with the pool, in the identity stack). */
interface CognitoTrigger {
  kind: 'cognito';
  /** pre-token generation, V2 event (access and ID token customization; Essentials or Plus plan) */
  event: 'preTokenGeneration';
}

/**
 * An operator command: the CLI invokes the function directly (Lambda Invoke, signed with the operator's
 * own AWS credentials), so work that needs the database in its isolated subnets runs inside the VPC
 * without a public route.
 */
interface OperatorTrigger {
  kind: 'operator';
  /** the command that invokes it, for docs and help texts */
  command: string;
}

type Trigger = HttpTrigger | QueueTrigger | ScheduleTrigger | CognitoTrigger | OperatorTrigger;

export interface FunctionSpec {
  /** stable id: CDK construct id, log group name part, FUNCTION_ID env var */
  id: string;
  description: string;
  /** Handler module relative to the project root (exporting `handler`) */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  triggers: Trigger[];
  uses: Resource[];
  /**
   * Grants of the function's policy that no end-to-end test exercises, each with the reason it must stay
   * (`npm run iam-report` fails on an unused grant without one). Keyed by IAM action.
   */
  unexercisedGrants?: Partial<Record<string, string>>;
}

/**
 * Grants a role carries for the Lambda service itself, not for the function's code: the twin's recorded
 * calls never show them, so they are justified here once (`npm run iam-report`). Tracing: every function;
 * the event source mapping: queue workers (CDK's SqsEventSource grants them).
 */
const PLATFORM_GRANTS = {
  tracing: {
    'xray:PutTraceSegments': "active tracing: the Lambda service sends the function's trace segments with its role",
    'xray:PutTelemetryRecords': "active tracing: the Lambda service sends the function's trace segments with its role",
  },
  // a scheduled function's: a failed asynchronous run, sent on by Lambda (schedules-stack.ts); a test fails one
  // function only, and the sends it makes go to no other queue
  failureDestination: {
    'sqs:SendMessage':
      "the failure destination: the Lambda service sends a failed scheduled run to the schedules' failure queue with the function's role",
  },
  eventSource: {
    'sqs:ChangeMessageVisibility': "the SQS event source mapping (Lambda's poller, with the worker's role) may return a message early",
    'sqs:GetQueueAttributes': 'the SQS event source mapping reads its queue when it is created and enabled',
    'sqs:GetQueueUrl': 'the SQS event source mapping resolves its queue when it is created and enabled',
  },
} as const satisfies Record<string, Record<string, string>>;

/** Why a function keeps a grant no test exercises, if the manifest says (`npm run iam-report`). */
export const grantJustification = (fn: FunctionSpec | undefined, action: string, resource = ''): string | undefined => {
  const platform = (table: Record<string, string>) => table[action];
  return (
    fn?.unexercisedGrants?.[action] ??
    platform(PLATFORM_GRANTS.tracing) ??
    (fn?.triggers.some((t) => t.kind === 'queue') ? platform(PLATFORM_GRANTS.eventSource) : undefined) ??
    (fn?.triggers.some((t) => t.kind === 'schedule') && resource.endsWith(`-${SCHEDULE_FAILURES}`)
      ? platform(PLATFORM_GRANTS.failureDestination)
      : undefined)
  );
};

const SCHEDULE_FAILURES = 'schedule-failures';
/** The queue a scheduled function's failed runs go to, `<prefix>-schedule-failures` (lib/stacks/schedules-stack.ts). */
export const scheduleFailuresQueueName = (prefix: string): string => `${prefix}-${SCHEDULE_FAILURES}`;

/**
 * An HTTP API waits at most 30 s for a function, then answers 504 while the function runs on; so every
 * HTTP-triggered function stops before that, and a slow request fails as itself (500) with nothing half-done.
 */
export const HTTP_API_INTEGRATION_TIMEOUT_SECONDS = 30;

/**
 * CORS of the HTTP API (the origin is per stage): the headers the SPA may send — `idempotency-key` for
 * retried feedback — and may read — `retry-after` on a 429, `x-request-id` to quote in a support request,
 * `content-disposition` for the file name of an export it saves.
 */
export const CORS = {
  allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
  exposeHeaders: ['retry-after', 'x-request-id', 'content-disposition'],
  maxAgeSeconds: 3600,
} as const;

const API = { timeoutSeconds: 10, memoryMb: 512 } as const;
/** An HTTP trigger that keeps its method and path as literal types: RouteKey below is built from them. */
const http = <const M extends HttpMethod, const P extends ApiPath>(method: M, path: P, access: Access): HttpTrigger<M, P> => ({
  kind: 'http',
  method,
  path,
  access,
});

export interface QueueSpec {
  description: string;
  maxReceiveCount: number;
  /**
   * the files bucket's Object Created events under this key prefix go to the queue (S3 → EventBridge → SQS in AWS;
   * the twin sends them when an object is put), besides what the service's functions send
   */
  objectsCreated?: { prefix: string };
}

export const queues: Record<QueueName, QueueSpec> = {
  generation: { description: 'analysis generation requests', maxReceiveCount: 3 },
  quality: { description: 'faithfulness and coverage checks', maxReceiveCount: 3 },
  ingestion: {
    description: 'evidence files that arrived in the files bucket, to extract',
    // one more than the extraction attempts of a file (files/stored-files.ts MAX_EXTRACTION_ATTEMPTS): the last
    // delivery records the file as failed instead of leaving its item processing
    maxReceiveCount: 4,
    objectsCreated: { prefix: FILE_PREFIXES.evidence },
  },
  imports: {
    description: 'bulk imports: the file arrived, then each next part to process',
    maxReceiveCount: 5,
    objectsCreated: { prefix: FILE_PREFIXES.imports },
  },
  embedding: { description: 'sources written, waiting for their embeddings', maxReceiveCount: 5 },
};

/** Every function, declared with its routes' literal types (`satisfies`, not an annotation, so RouteKey can read them). */
const declared = [
  // ── public ────────────────────────────────────────────────────────────────────────────────
  {
    id: 'health',
    description: 'Health check read by smoke tests and canaries',
    entry: 'functions/http/health.ts',
    ...API,
    triggers: [http('GET', '/api/health', 'public')],
    uses: ['database', 'queueHealth', 'filesBucketHealth'],
  },
  {
    id: 'openapi',
    description: 'OpenAPI 3.1 document of every route',
    entry: 'functions/http/openapi.ts',
    ...API,
    triggers: [http('GET', '/api/openapi.json', 'public')],
    uses: [],
  },
  {
    id: 'auth-login',
    description: 'Password sign-in through the identity provider; failures audited',
    entry: 'functions/http/auth-login.ts',
    ...API,
    triggers: [http('POST', '/api/auth/login', 'public')],
    uses: ['database', 'userPoolInitiateAuth'],
  },
  {
    id: 'auth-mfa-verify',
    description: 'Multi-factor step of sign-in',
    entry: 'functions/http/auth-mfa-verify.ts',
    ...API,
    triggers: [http('POST', '/api/auth/mfa/verify', 'public')],
    uses: ['database', 'userPoolRespondToChallenge'],
  },
  {
    id: 'auth-mfa-setup',
    description: 'Enrols a TOTP authenticator during sign-in (MFA_SETUP, when the pool requires MFA); failures audited',
    entry: 'functions/http/auth-mfa-setup.ts',
    ...API,
    triggers: [http('POST', '/api/auth/mfa/setup', 'public')],
    uses: ['database', 'userPoolRespondToChallenge'],
  },
  {
    id: 'auth-webauthn-verify',
    description: 'Passkey (WebAuthn) verification; failures audited',
    entry: 'functions/http/auth-webauthn-verify.ts',
    ...API,
    triggers: [http('POST', '/api/auth/webauthn/authenticate/verify', 'public')],
    uses: ['database', 'userPoolRespondToChallenge'],
  },
  {
    id: 'auth-new-password',
    description: 'First sign-in of an invited user: replaces the temporary password; failures audited',
    entry: 'functions/http/auth-new-password.ts',
    ...API,
    triggers: [http('POST', '/api/auth/new-password', 'public')],
    uses: ['database', 'userPoolRespondToChallenge'],
  },
  {
    id: 'auth-forgot-password',
    description: 'Forgot-password flow',
    entry: 'functions/http/auth-forgot-password.ts',
    ...API,
    triggers: [http('POST', '/api/auth/forgot-password', 'public')],
    uses: ['database', 'userPool'],
  },
  {
    id: 'payment-webhook',
    description: 'Invoice-paid events, signature-checked and idempotent',
    entry: 'functions/http/payment-webhook.ts',
    ...API,
    triggers: [http('POST', '/api/webhooks/payment', 'public')],
    uses: ['database', 'webhookSecret'],
  },

  // ── investigator ──────────────────────────────────────────────────────────────────────────
  {
    id: 'investigations-list',
    description: "The caller's organization's investigations",
    entry: 'functions/http/investigations-list.ts',
    ...API,
    triggers: [http('GET', '/api/investigations', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'investigation-get',
    description: 'One investigation with its questions and topics',
    entry: 'functions/http/investigation-get.ts',
    ...API,
    triggers: [http('GET', '/api/investigations/{investigation_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'investigation-evidence',
    description: 'Evidence items with their attachments, and background documents, each openable in the file viewer',
    entry: 'functions/http/investigation-evidence.ts',
    ...API,
    triggers: [http('GET', '/api/investigations/{investigation_id}/evidence', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'investigation-create',
    description: "Create an investigation in the caller's organization",
    entry: 'functions/http/investigation-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'investigation-update',
    description: "Change an investigation's title or description",
    entry: 'functions/http/investigation-update.ts',
    ...API,
    triggers: [http('PATCH', '/api/investigations/{investigation_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'question-create',
    description: 'Add a question to an investigation',
    entry: 'functions/http/question-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/questions', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'topic-create',
    description: 'Add a topic to an investigation',
    entry: 'functions/http/topic-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/topics', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'evidence-create',
    description: 'Add an evidence item (its text at once, its files by presigned upload); queued for embedding',
    entry: 'functions/http/evidence-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/evidence', 'investigator')],
    uses: ['database', 'fileUploads', 'embeddingQueue'],
  },
  {
    id: 'evidence-get',
    description: 'One evidence item with its attachments and how far each has come in',
    entry: 'functions/http/evidence-get.ts',
    ...API,
    triggers: [http('GET', '/api/investigations/{investigation_id}/evidence/{evidence_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'evidence-update',
    description: "Change an evidence item's title, text, date or linked questions (changed text is embedded again)",
    entry: 'functions/http/evidence-update.ts',
    ...API,
    triggers: [http('PATCH', '/api/investigations/{investigation_id}/evidence/{evidence_id}', 'investigator')],
    uses: ['database', 'embeddingQueue'],
    unexercisedGrants: {
      'sqs:SendMessage':
        'wakes the embedding worker after a change of the text (its chunks written again); the end-to-end tests change titles, dates and links',
    },
  },
  {
    id: 'evidence-delete',
    description: 'Delete an evidence item with its attachments, files, chunks and embeddings',
    entry: 'functions/http/evidence-delete.ts',
    ...API,
    triggers: [http('DELETE', '/api/investigations/{investigation_id}/evidence/{evidence_id}', 'investigator')],
    uses: ['database', 'fileDeletes'],
  },
  {
    id: 'attachment-add',
    description: 'Add attachments to an evidence item: presigned uploads',
    entry: 'functions/http/attachment-add.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/evidence/{evidence_id}/attachments', 'investigator')],
    uses: ['database', 'fileUploads'],
    unexercisedGrants: {
      's3:PutObject':
        "a presigned upload URL is signed with this role: S3 authorises the client's PUT as this role; the end-to-end tests upload through evidence-create's URLs",
    },
  },
  {
    id: 'attachment-upload',
    description: 'A new presigned upload for an attachment whose file has not arrived',
    entry: 'functions/http/attachment-upload.ts',
    ...API,
    triggers: [
      http('POST', '/api/investigations/{investigation_id}/evidence/{evidence_id}/attachments/{attachment_id}/upload', 'investigator'),
    ],
    uses: ['database', 'fileUploads'],
    unexercisedGrants: {
      's3:PutObject':
        "a presigned upload URL is signed with this role: S3 authorises the client's PUT as this role; the end-to-end tests upload through evidence-create's URLs",
    },
  },
  {
    id: 'background-document-create',
    description: 'Add a background document: a presigned upload, extracted when it arrives',
    entry: 'functions/http/background-document-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/background-documents', 'investigator')],
    uses: ['database', 'fileUploads'],
  },
  {
    id: 'background-document-update',
    description: "Change a background document's title, or whether the AI is given it",
    entry: 'functions/http/background-document-update.ts',
    ...API,
    triggers: [http('PATCH', '/api/investigations/{investigation_id}/background-documents/{background_document_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'background-document-delete',
    description: 'Delete a background document with its file, chunks and embeddings',
    entry: 'functions/http/background-document-delete.ts',
    ...API,
    triggers: [http('DELETE', '/api/investigations/{investigation_id}/background-documents/{background_document_id}', 'investigator')],
    uses: ['database', 'fileDeletes'],
  },
  {
    id: 'import-create',
    description: 'Start a bulk import of a whole matter: a presigned upload of the file, processed in the background',
    entry: 'functions/http/import-create.ts',
    ...API,
    triggers: [http('POST', '/api/investigations/{investigation_id}/imports', 'investigator')],
    uses: ['database', 'importUploads'],
  },
  {
    id: 'import-get',
    description: 'Progress and per-line errors of a bulk import',
    entry: 'functions/http/import-get.ts',
    ...API,
    triggers: [http('GET', '/api/investigations/{investigation_id}/imports/{import_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'ingestion-status',
    description: "How far an investigation's evidence has come in: items ready, chunks waiting for embeddings, failures",
    entry: 'functions/http/ingestion-status.ts',
    ...API,
    triggers: [http('GET', '/api/investigations/{investigation_id}/ingestion', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-assess',
    description: 'Evidence check before generation (no AI call)',
    entry: 'functions/http/analysis-assess.ts',
    ...API,
    triggers: [http('POST', '/api/analysis/assess', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-create',
    description: 'Start an analysis; generation continues in the background',
    entry: 'functions/http/analysis-create.ts',
    ...API,
    triggers: [http('POST', '/api/analysis', 'investigator')],
    uses: ['database', 'generationQueue'],
  },
  {
    id: 'analysis-list',
    description: "An investigation's analyses, newest first, with feedback badges",
    entry: 'functions/http/analysis-list.ts',
    ...API,
    triggers: [http('GET', '/api/analysis', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-get',
    description: 'One analysis (the polling target)',
    entry: 'functions/http/analysis-get.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-quality-check',
    description: 'Manually start the faithfulness and coverage checks',
    entry: 'functions/http/analysis-quality-check.ts',
    ...API,
    triggers: [http('POST', '/api/analysis/{analysis_id}/quality-check', 'investigator')],
    uses: ['database', 'qualityQueue'],
  },
  {
    id: 'analysis-quality-status',
    description: 'Progress of the quality checks',
    entry: 'functions/http/analysis-quality-status.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/quality-status', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-retrieval',
    description: 'Chunks the AI considered, with similarity and inclusion',
    entry: 'functions/http/analysis-retrieval.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/retrieval', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-retrieval-chunk',
    description: 'One retrieved chunk in full, with its surrounding passage (opening a citation)',
    entry: 'functions/http/analysis-retrieval-chunk.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/retrieval/{chunk_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-export',
    description:
      'The analysis as a record, JSON or PDF (question, answer, quoted passages, claims, scores, retrieval, models, timestamps, judgments)',
    entry: 'functions/http/analysis-export.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/export', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-engagement',
    description: 'Record engagement gate steps (detail reviewed, citation checked)',
    entry: 'functions/http/analysis-engagement.ts',
    ...API,
    triggers: [http('POST', '/api/analysis/{analysis_id}/engagement', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-feedback-create',
    description: 'Record a judgment, regeneration, edit or view',
    entry: 'functions/http/analysis-feedback-create.ts',
    ...API,
    triggers: [http('POST', '/api/analysis/{analysis_id}/feedback', 'investigator')],
    uses: ['database', 'generationQueue'],
  },
  {
    id: 'analysis-feedback-list',
    description: 'Feedback history of one analysis',
    entry: 'functions/http/analysis-feedback-list.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/feedback', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'analysis-feedback-get',
    description: 'One feedback record of an analysis (the Location of a recorded action)',
    entry: 'functions/http/analysis-feedback-get.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/{analysis_id}/feedback/{feedback_id}', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'feedback-metrics',
    description: 'Feedback rates, breakdown, top reasons, 8-week trend',
    entry: 'functions/http/feedback-metrics.ts',
    ...API,
    triggers: [http('GET', '/api/analysis/feedback-metrics', 'investigator')],
    uses: ['database'],
  },
  {
    id: 'storage-view',
    description: 'File viewer proxy for attachments and background documents',
    entry: 'functions/http/storage-view.ts',
    ...API,
    triggers: [http('GET', '/api/storage/view', 'investigator')],
    uses: ['database', 'filesBucket'],
  },
  {
    id: 'background-extract-text',
    description: 'Extract text from a background document for the AI',
    entry: 'functions/http/background-extract-text.ts',
    timeoutSeconds: 29,
    memoryMb: 1024, // a 20 MiB PDF, the largest read, parses in a few seconds
    triggers: [http('POST', '/api/background/extract-text', 'investigator')],
    uses: ['database', 'filesBucket', 'embeddingQueue'],
  },

  // ── admin ─────────────────────────────────────────────────────────────────────────────────
  {
    id: 'admin-prompt-history',
    description: 'Versions of a prompt template, or one version in full',
    entry: 'functions/http/admin-prompt-history.ts',
    ...API,
    triggers: [http('GET', '/api/admin/prompts/history', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-prompt-rollback',
    description: 'Roll a prompt template back by creating a new version',
    entry: 'functions/http/admin-prompt-rollback.ts',
    ...API,
    triggers: [http('POST', '/api/admin/prompts/history', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-prompt-create',
    description: 'Create a new version of a prompt template',
    entry: 'functions/http/admin-prompt-create.ts',
    ...API,
    triggers: [http('POST', '/api/admin/prompts', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-prompt-update',
    description: 'Deactivate a prompt template',
    entry: 'functions/http/admin-prompt-update.ts',
    ...API,
    triggers: [http('PATCH', '/api/admin/prompts/{prompt_type}', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-settings-get',
    description: 'Runtime settings (currently none)',
    entry: 'functions/http/admin-settings-get.ts',
    ...API,
    triggers: [http('GET', '/api/admin/settings', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-settings-put',
    description: 'Settings change (no key is modifiable; audited)',
    entry: 'functions/http/admin-settings-put.ts',
    ...API,
    triggers: [http('PUT', '/api/admin/settings', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-queue-stats',
    description: 'Queue depths and the throttle shedder status',
    entry: 'functions/http/admin-queue-stats.ts',
    ...API,
    triggers: [http('GET', '/api/admin/queue-stats', 'admin')],
    uses: ['database', 'queueStats'],
  },
  {
    id: 'admin-audit-health',
    description: 'Audit action types that are failing',
    entry: 'functions/http/admin-audit-health.ts',
    ...API,
    triggers: [http('GET', '/api/admin/audit-health', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-users',
    description: 'Users with their AI usage counts',
    entry: 'functions/http/admin-users.ts',
    ...API,
    triggers: [http('GET', '/api/admin/users', 'admin')],
    uses: ['database'],
  },
  {
    id: 'admin-jobs-status',
    description: 'Background job status',
    entry: 'functions/http/admin-jobs-status.ts',
    ...API,
    triggers: [http('GET', '/api/admin/jobs/status', 'admin')],
    uses: ['database', 'queueStats'],
  },

  // ── schedules (each also reachable on its cron route) ─────────────────────────────────────
  {
    id: 'embedding-sweeper',
    description: 'Embed pending evidence chunks; report what is still pending',
    entry: 'functions/cron/embedding-sweeper.ts',
    timeoutSeconds: 300,
    memoryMb: 1024,
    triggers: [http('POST', '/api/admin/cron/embedding-sweeper', 'cron'), { kind: 'schedule', expression: 'rate(1 hour)' }],
    uses: ['database', 'bedrockEmbedding', 'cronSecret'],
  },
  {
    id: 'retention-sweep',
    description: 'Delete what has outlived its retention; logs RetentionCronLastRun',
    entry: 'functions/cron/retention-sweep.ts',
    timeoutSeconds: 300,
    memoryMb: 512,
    triggers: [http('POST', '/api/admin/cron/retention', 'cron'), { kind: 'schedule', expression: 'rate(1 day)' }],
    uses: ['database', 'cronSecret'],
  },
  {
    id: 'analysis-watchdog',
    description: 'Release analyses stuck in checking; fail those stuck in generating or queued',
    entry: 'functions/schedules/analysis-watchdog.ts',
    timeoutSeconds: 60,
    memoryMb: 256,
    triggers: [{ kind: 'schedule', expression: 'rate(5 minutes)' }],
    uses: ['database'],
  },

  // ── user pool triggers ────────────────────────────────────────────────────────────────────
  // Cognito waits 5 s for a trigger, then fails the sign-in: nothing here may call out
  {
    id: 'pre-token-generation',
    description: "Puts the user's organization into the tokens Cognito issues",
    entry: 'functions/cognito/pre-token-generation.ts',
    timeoutSeconds: 5,
    memoryMb: 256,
    triggers: [{ kind: 'cognito', event: 'preTokenGeneration' }],
    uses: [],
  },

  // ── operator commands (invoked by the CLI, no route) ─────────────────────────────────────────
  {
    id: 'users',
    description: 'Onboarding: create organizations, invite investigators and operators, list them',
    entry: 'functions/operator/users.ts',
    timeoutSeconds: 30,
    memoryMb: 512,
    triggers: [{ kind: 'operator', command: 'npm run users' }],
    uses: ['database', 'userPoolAdmin'],
    unexercisedGrants: {
      'cognito-idp:AdminDeleteUser':
        'undoes a Cognito user whose users row could not be written (a database fault mid-invitation), so a retry starts clean',
    },
  },

  {
    id: 'import-investigations',
    description: 'Loads a seed file uploaded under imports/ into the database, in one transaction',
    entry: 'functions/operator/import-investigations.ts',
    timeoutSeconds: 300,
    memoryMb: 1024, // a seed file of a few hundred MB of evidence text, parsed and written at once
    triggers: [{ kind: 'operator', command: 'npm run seed -- --stage <stage> --file <seed.json>' }],
    uses: ['database', 'seedImports'],
  },

  // ── ingestion workers ─────────────────────────────────────────────────────────────────────
  {
    id: 'ingestion-worker',
    description: 'Extract the text of each file that arrives, chunk it and queue it for embedding',
    entry: 'functions/workers/ingestion.ts',
    timeoutSeconds: 300,
    memoryMb: 1024, // a 20 MiB PDF, the largest read, parses in a few seconds
    triggers: [{ kind: 'queue', queue: 'ingestion', batchSize: 5, maxConcurrency: 4 }],
    uses: ['database', 'filesBucket', 'embeddingQueue'],
    unexercisedGrants: {
      's3:ListBucket': 'with it, a GetObject of a key deleted meanwhile answers 404 NoSuchKey (the file is gone: nothing to do), not 403',
    },
  },
  {
    id: 'import-worker',
    description: 'Process a bulk import a part at a time (resumable, idempotent per line); queue what it wrote for embedding',
    entry: 'functions/workers/import.ts',
    timeoutSeconds: 300,
    memoryMb: 1024,
    triggers: [{ kind: 'queue', queue: 'imports', batchSize: 1, maxConcurrency: 2 }],
    uses: ['database', 'filesBucket', 'fileUploads', 'importsQueue', 'embeddingQueue'],
    unexercisedGrants: {
      's3:ListBucket': 'with it, a GetObject of a key deleted meanwhile answers 404 NoSuchKey (the file is gone: nothing to do), not 403',
      'sqs:SendMessage': "an import that runs out of its time budget sends itself its continuation; the tests' imports finish in one run",
    },
  },
  {
    id: 'embedding-worker',
    description: 'Embed the chunks waiting for it, many to a model request, within the quota (analyses first)',
    entry: 'functions/workers/embedding.ts',
    timeoutSeconds: 300,
    memoryMb: 1024,
    triggers: [{ kind: 'queue', queue: 'embedding', batchSize: 10, maxConcurrency: 2 }],
    // embeddingQueue: to look again later when the quota or a lease holds the work back
    uses: ['database', 'bedrockEmbedding', 'embeddingQueue'],
    unexercisedGrants: {
      'bedrock:InvokeModel':
        "the fallback region's model, taken when the primary's share of the quota is full or the region fails; an end-to-end run fills the primary only under load (whole requests of 96 leave it room), so whether a run uses it varies; test/ai/gateway.test.ts and test/embeddings/embedding-work.test.ts take the fallback on purpose",
    },
  },

  // ── queue workers ─────────────────────────────────────────────────────────────────────────
  {
    id: 'generation-worker',
    description: 'Generate an analysis from retrieved evidence',
    entry: 'functions/workers/generation.ts',
    timeoutSeconds: 300,
    memoryMb: 1024,
    triggers: [{ kind: 'queue', queue: 'generation', batchSize: 1, maxConcurrency: ANALYSIS_WORKER_CONCURRENCY.generation }],
    // retrieval embeds the question with the embedding model; work waiting for its organization's AI share
    // is sent to its own queue again with a delay (layers/core/analysis/worker.ts)
    uses: ['database', 'bedrockAnalysis', 'bedrockEmbedding', 'generationQueue', 'qualityQueue'],
  },
  {
    id: 'quality-worker',
    description: 'Run the faithfulness and coverage checks',
    entry: 'functions/workers/quality.ts',
    timeoutSeconds: 150, // two checks in turn, each bounded, and their quota waits (ai/timeouts.ts)
    memoryMb: 1024,
    triggers: [{ kind: 'queue', queue: 'quality', batchSize: 1, maxConcurrency: ANALYSIS_WORKER_CONCURRENCY.quality }],
    uses: ['database', 'bedrockQuality', 'qualityQueue'],
    unexercisedGrants: {
      'bedrock:InvokeModel':
        "the fallback region's model, taken when the primary is full or fails; the end-to-end runs shed the checks on a failing primary (test/resilience/regions.e2e.test.ts) and reach the fallback only when a tenant flood's window overlaps a check, which varies by run; test/ai/gateway.test.ts takes the fallback on purpose",
    },
  }, // qualityQueue: to wait for AI capacity, as above
] satisfies FunctionSpec[];

export const functions: FunctionSpec[] = declared;

/** The route key (`METHOD /path`) of every HTTP route the manifest declares: a contract names one of these. */
export type RouteKey =
  Extract<(typeof declared)[number]['triggers'][number], { kind: 'http' }> extends infer T
    ? T extends HttpTrigger<infer M, infer P>
      ? `${M} ${P}`
      : never
    : never;

/** Prefix of a stage's stack names and fixed resource names, e.g. `ias-dev`. */
export const stagePrefix = (stage: string): string => `ias-${stage}`;

/**
 * Deployed name of a function: `<prefix>-<id>`, e.g. `ias-prod-analysis-get`. Fixed so alarms and
 * dashboards can name a function without a cross-stack reference, and operator commands can invoke it.
 */
export const deployedFunctionName = (prefix: string, id: string): string => `${prefix}-${id}`;

/** HTTP routes that queue AI work (a generation, a regeneration, a manual quality check): the organization's cap applies to them. */
export const queuesAiWork = (fn: FunctionSpec): boolean =>
  fn.triggers.some((t) => t.kind === 'http') && fn.uses.some((use) => use === 'generationQueue' || use === 'qualityQueue');

/** Whether a function calls Bedrock (any of the pinned models). */
export const callsBedrock = (fn: FunctionSpec): boolean => fn.uses.some((use) => use.startsWith('bedrock'));

export const httpRoutes = (): (HttpTrigger & { fn: FunctionSpec })[] =>
  functions.flatMap((fn) => fn.triggers.filter((t): t is HttpTrigger => t.kind === 'http').map((t) => ({ ...t, fn })));

/**
 * What a function's own code needs of its manifest entry when it runs: its routes, timeout and resources. The
 * stacks hand it to the function in FUNCTION_FACTS (lib/stacks/service-function.ts), so a function's bundle
 * need not carry every function's spec (layers/core/function-facts.ts).
 */
export interface FunctionFacts {
  id: string;
  timeoutSeconds: number;
  uses: Resource[];
  routes: HttpTrigger[];
}

export const functionFacts = (spec: FunctionSpec): FunctionFacts => ({
  id: spec.id,
  timeoutSeconds: spec.timeoutSeconds,
  uses: spec.uses,
  routes: spec.triggers.filter((t): t is HttpTrigger => t.kind === 'http'),
});

export const functionById = (id: string): FunctionSpec => {
  const fn = functions.find((f) => f.id === id);
  if (!fn) throw new Error(`no function '${id}' in the service manifest`);
  return fn;
};

/** Visibility timeout for a queue: at least 6 × its consumer's timeout (AWS guidance for Lambda). */
export const visibilityTimeoutSeconds = (queue: QueueName): number => {
  const consumers = functions.filter((f) => f.triggers.some((t) => t.kind === 'queue' && t.queue === queue));
  return 6 * Math.max(30, ...consumers.map((f) => f.timeoutSeconds));
};

/** The input a scheduled run receives: EventBridge Scheduler sends it in AWS, the twin's timers locally. */
export const scheduledEvent = (fn: FunctionSpec, trigger: ScheduleTrigger) => ({
  source: 'schedule' as const,
  function_id: fn.id,
  expression: trigger.expression,
});

/** Milliseconds between runs of a `rate(...)` schedule expression. */
export const rateToMs = (expression: ScheduleTrigger['expression']): number => {
  const m = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!m) throw new Error(`unsupported schedule expression ${expression}`);
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[m[2]!.replace(/s$/, '') as 'minute' | 'hour' | 'day'];
  return Number(m[1]) * unit;
};
