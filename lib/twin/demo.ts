/**
 * The demo investigations a first start seeds: their files into the files bucket and their rows into the database,
 * as an operator would load them; then the embedding worker is woken, as every writer wakes it, and a start waits
 * for the demo to be analysable.
 */
import type { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type Kysely, sql } from 'kysely';
import { ENV } from '#manifest/runtime-names';
import type { DatabaseHandle } from '#core/db/connection';
import type { Database } from '#core/db/schema';
import type { EmbeddingWakeUp } from '#core/embeddings/wake';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { environmentValue, type TwinPlan } from './assembly/plan';
import { edgeClientConfig, type EdgeAddress } from './aws/edge-client';

/** A start waits for the demo's embeddings while they progress: at most this long without one more chunk embedded. */
const DEMO_EMBEDDING_STALL_MS = 10_000;

/** Resolves when no chunk of the demo waits for its vector, or once none has been embedded for a while (said in the log). */
export const demoEmbedded = async (db: Kysely<Database>, log: (line: string) => void) => {
  let waiting = Number.POSITIVE_INFINITY;
  let progressAt = Date.now();
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from text_chunks
      where investigation_id = any(${Object.values(DEMO_INVESTIGATION_IDS)}::uuid[]) and embedding is null`.execute(db);
    const n = rows[0]!.n;
    if (n === 0) return;
    if (n < waiting) [waiting, progressAt] = [n, Date.now()];
    if (Date.now() - progressAt > DEMO_EMBEDDING_STALL_MS) {
      log(`[twin] the demo still has ${n} chunks waiting for embeddings; the embedding worker goes on with them`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/**
 * Sends the embedding queue a wake-up for each investigation, as an operator (through the edge): the seed wrote all it
 * will, so the last, partial request of each does not wait for more (1.9 s of every cold start; docs/benchmarks.md).
 */
const wakeEmbeddingOf = async (edge: EdgeAddress, region: string, queueUrl: string, investigationIds: readonly string[]) => {
  const sqs = new SQSClient(edgeClientConfig(edge, region, { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' }));
  try {
    for (const id of investigationIds)
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify({ investigation_id: id, done_writing: true } satisfies EmbeddingWakeUp),
        }),
      );
  } finally {
    sqs.destroy();
  }
};

/**
 * First start: the demo investigation (files into the files bucket, as an operator would load them; rows into the database).
 * The S3 client is loaded only when there is something to put (a later start finds the demo seeded and puts nothing).
 */
const seedDemoData = async (database: DatabaseHandle, endpoint: string, bucket: string, region: string): Promise<boolean> => {
  const { seedDemo } = await import('#core/seed/load');
  let s3: Promise<{ client: S3Client; PutObjectCommand: typeof PutObjectCommand }> | undefined;
  const client = () =>
    (s3 ??= import('@aws-sdk/client-s3').then((sdk) => ({
      client: new sdk.S3Client({
        endpoint,
        region,
        forcePathStyle: true,
        credentials: { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' },
      }),
      PutObjectCommand: sdk.PutObjectCommand,
    })));
  try {
    const storage = {
      put: async (key: string, body: string | Uint8Array, contentType: string) => {
        const s3Sdk = await client();
        await s3Sdk.client.send(
          new s3Sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ServerSideEncryption: 'AES256' }),
        );
      },
    };
    return (await seedDemo(database.db, { storage })) !== null;
  } finally {
    if (s3) (await s3).client.destroy();
  }
};

/** Seeds the demo into an empty database; true when it did (a later start finds it seeded and seeds nothing). */
export const seedDemoOnce = async (options: {
  database: DatabaseHandle;
  plan: TwinPlan;
  /** fauxqs's own endpoint, where the operator puts the files */
  awsEndpoint: string;
  edge: EdgeAddress;
}): Promise<boolean> => {
  const { database, plan } = options;
  const seeded = await seedDemoData(database, options.awsEndpoint, environmentValue(plan, ENV.filesBucket), plan.region);
  // the demo's texts were written as chunks waiting for embeddings: wake the embedding worker, as every writer does
  if (seeded)
    await wakeEmbeddingOf(options.edge, plan.region, environmentValue(plan, ENV.embeddingQueueUrl), Object.values(DEMO_INVESTIGATION_IDS));
  return seeded;
};
