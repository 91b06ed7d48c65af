/**
 * Queue depths from SQS (GetQueueAttributes) for GET /api/admin/queue-stats and /api/admin/jobs/status:
 * per queue, messages waiting (visible), being worked on (in flight), delayed, and waiting in its DLQ.
 * The DLQ is found from the queue's own RedrivePolicy, so nothing names it twice. Queue stats also say what
 * the embedding work is doing (from the database: embeddings/activity.ts), since its queue only carries wake-ups.
 *
 * A queue SQS does not answer for (unreachable, not configured, no permission) is reported with null
 * counts and its `error`, and the other queue and the shedder status are still returned: an operator
 * looking at a degraded system needs what can be read (GET /api/health is the check that answers 503).
 */
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import type { QueueName } from '#manifest';
import type { Kysely } from 'kysely';
import type { AiGateway } from '#core/ai/gateway';
import type { Database } from '#core/db/schema';
import { embeddingActivity, embeddingActivitySchema } from '#core/embeddings/activity';
import { sqsClient } from '#core/aws/clients';
import { QUEUE_URL_ENV } from '#manifest/runtime-names';
import { env } from '#core/config';
import { ifUsed } from '#core/if-used';

const depth = /* @__PURE__ */ ifUsed(() => z.number().int().nonnegative().nullable());

/**
 * The manifest's queues, by the variables that hold their URLs: the operations contract's schema names them, and a
 * function that imports the contract (health) need not carry the whole manifest for five names.
 */
const QUEUE_NAMES = Object.keys(QUEUE_URL_ENV) as QueueName[];

export const queueDepthSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    visible: depth.describe('ApproximateNumberOfMessages: waiting to be received'),
    in_flight: depth.describe('ApproximateNumberOfMessagesNotVisible: received by a worker, not yet done'),
    delayed: depth.describe('ApproximateNumberOfMessagesDelayed'),
    dlq_depth: depth.describe("the dead-letter queue's ApproximateNumberOfMessages: messages that failed every attempt"),
    error: z.string().nullable().describe('why some numbers are null (SQS unreachable, queue not configured, …); null when all were read'),
  }),
);

export type QueueDepth = z.infer<typeof queueDepthSchema>;

export const queueDepthsSchema = /* @__PURE__ */ ifUsed(() =>
  z.object(Object.fromEntries(QUEUE_NAMES.map((q) => [q, queueDepthSchema])) as Record<QueueName, typeof queueDepthSchema>),
);

/** Each SQS call gets this long (the SDK's own retries included), so a hung endpoint cannot hold the route. */
const SQS_TIMEOUT_MS = 3_000;

/**
 * Pure: the DLQ's URL from the queue's URL and RedrivePolicy. A DLQ is always in the queue's account
 * and region, so its URL is the queue's with the last path segment replaced by the DLQ's name.
 */
export const dlqUrlOf = (queueUrl: string, redrivePolicy: string | undefined): string | undefined => {
  if (!redrivePolicy) return undefined;
  let arn: unknown;
  try {
    arn = (JSON.parse(redrivePolicy) as { deadLetterTargetArn?: unknown }).deadLetterTargetArn;
  } catch {
    return undefined;
  }
  const name = typeof arn === 'string' ? arn.split(':').at(-1) : undefined;
  if (!name || arn === name) return undefined;
  const url = new URL(queueUrl);
  url.pathname = url.pathname.replace(/[^/]+\/?$/, name);
  return url.toString();
};

const messageOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const asCount = (value: string | undefined): number | null => (value === undefined ? null : Number(value));

const depthOf = async (sqs: SQSClient, queueUrl: string | undefined, urlEnv: string, timeoutMs: number): Promise<QueueDepth> => {
  const none: QueueDepth = { visible: null, in_flight: null, delayed: null, dlq_depth: null, error: null };
  if (!queueUrl) return { ...none, error: `${urlEnv} is not configured` };
  const attributes = async (
    url: string,
    names: (
      | 'ApproximateNumberOfMessages'
      | 'ApproximateNumberOfMessagesNotVisible'
      | 'ApproximateNumberOfMessagesDelayed'
      | 'RedrivePolicy'
    )[],
  ) =>
    (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: names }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      })
    ).Attributes ?? {};
  let main: Record<string, string>;
  try {
    main = await attributes(queueUrl, [
      'ApproximateNumberOfMessages',
      'ApproximateNumberOfMessagesNotVisible',
      'ApproximateNumberOfMessagesDelayed',
      'RedrivePolicy',
    ]);
  } catch (error) {
    return { ...none, error: `SQS did not answer for the queue: ${messageOf(error)}` };
  }
  const depth: QueueDepth = {
    ...none,
    visible: asCount(main.ApproximateNumberOfMessages),
    in_flight: asCount(main.ApproximateNumberOfMessagesNotVisible),
    delayed: asCount(main.ApproximateNumberOfMessagesDelayed),
  };
  const dlqUrl = dlqUrlOf(queueUrl, main.RedrivePolicy);
  if (!dlqUrl) return { ...depth, error: 'the queue has no dead-letter queue (RedrivePolicy)' };
  try {
    return { ...depth, dlq_depth: asCount((await attributes(dlqUrl, ['ApproximateNumberOfMessages'])).ApproximateNumberOfMessages) };
  } catch (error) {
    return { ...depth, error: `SQS did not answer for the dead-letter queue: ${messageOf(error)}` };
  }
};

export interface DepthOptions {
  sqs?: SQSClient;
  /** queue URLs (default: GENERATION_QUEUE_URL, QUALITY_QUEUE_URL) */
  urls?: Partial<Record<QueueName, string | undefined>>;
  timeoutMs?: number;
}

/** Every manifest queue's depths, read in parallel; never throws (see QueueDepth.error). */
export const queueDepths = async ({
  sqs = sqsClient(),
  urls,
  timeoutMs = SQS_TIMEOUT_MS,
}: DepthOptions = {}): Promise<Record<QueueName, QueueDepth>> => {
  const names = QUEUE_NAMES;
  const depths = await Promise.all(
    names.map((name) => depthOf(sqs, urls ? urls[name] : env(QUEUE_URL_ENV[name]), QUEUE_URL_ENV[name], timeoutMs)),
  );
  return Object.fromEntries(names.map((name, i) => [name, depths[i]!])) as Record<QueueName, QueueDepth>;
};

export const queueStatsSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    queues: queueDepthsSchema,
    shedder: z.object({
      hot: z.boolean().describe('quality calls are being shed'),
      recentThrottles: z.number().int().nonnegative().describe('model throttles in the last 60 s, all regions'),
      fallbackRegion: z.string(),
      disabled: z.boolean().describe('AI_SHEDDER_DISABLED'),
    }),
    embedding: embeddingActivitySchema,
    time: z.iso.datetime(),
  }),
);

export type QueueStats = z.infer<typeof queueStatsSchema>;

/** GET /api/admin/queue-stats: the queues, the AI gateway's throttle shedder, and the embedding work. */
export const queueStats = async (
  db: Kysely<Database>,
  gateway: Pick<AiGateway, 'shedderStatus'>,
  options: DepthOptions = {},
): Promise<QueueStats> => {
  const [depths, shedder, embedding] = await Promise.all([queueDepths(options), gateway.shedderStatus(), embeddingActivity(db)]);
  return { queues: depths, shedder, embedding, time: new Date().toISOString() };
};
