/**
 * Component checks behind GET /api/health. Each check is bounded in time so a hung dependency makes
 * the endpoint answer 503 promptly instead of hanging the canary.
 */
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { s3Client, sqsClient } from '#core/aws/clients';
import { env, ENV } from './config';
import { database, ping } from '#core/db/connection';

interface CheckResult {
  status: 'ok' | 'failed';
  latency_ms: number;
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<'database' | 'generation_queue' | 'quality_queue' | 'storage', CheckResult>;
  time: string;
}

const CHECK_TIMEOUT_MS = 3_000;

const timed = async (check: () => Promise<unknown>, timeoutMs = CHECK_TIMEOUT_MS): Promise<CheckResult> => {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'failed',
      latency_ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
};

const queueCheck = (url: string | undefined) => async () => {
  if (!url) throw new Error('queue URL is not configured');
  await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }));
};

export const checkHealth = async (): Promise<HealthReport> => {
  const [databaseCheck, generationQueue, qualityQueue, storage] = await Promise.all([
    timed(async () => ping(await database())),
    timed(queueCheck(env(ENV.generationQueueUrl))),
    timed(queueCheck(env(ENV.qualityQueueUrl))),
    timed(async () => {
      const bucket = env(ENV.filesBucket);
      if (!bucket) throw new Error('files bucket is not configured');
      await s3Client().send(new HeadBucketCommand({ Bucket: bucket }));
    }),
  ]);
  const checks = { database: databaseCheck, generation_queue: generationQueue, quality_queue: qualityQueue, storage };
  const healthy = Object.values(checks).every((c) => c.status === 'ok');
  return { status: healthy ? 'ok' : 'unavailable', checks, time: new Date().toISOString() };
};
