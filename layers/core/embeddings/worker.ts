/**
 * The embedding worker's loop (SQS, partial batch responses). Every message is a wake-up — the database is the work
 * list — so a batch is ONE run of the embedding work (embedding-work.ts), within a time budget that stops it well
 * before the function's timeout (the last request and its store still fit).
 *
 * When work is left (the budget ran out, the quota is full until later, chunks are leased by another worker or
 * deferred after a refusal, the AI service is unavailable), the worker sends itself one delayed wake-up for when it
 * can go on, and the batch's messages are done with: waiting never spends their receive count. Should the run fail
 * (the database is down), or the wake-up not be sent while work is left, every message of the batch is reported
 * back and returns after the queue's visibility timeout (in the end to the DLQ): nothing is lost, and the hourly
 * sweeper is the backstop.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger, withLambdaContext } from '#core/logger';
import { MAX_DELAY_SECONDS } from '#core/queues';
import type { WorkOutcome } from './embedding-work';
import { wakeEmbeddingLater } from './wake';

/** A run's budget: at most 240 s, and 60 s short of what the invocation has left (a request's worst case is ~30 s). */
const WORKER_BUDGET = { capMs: 240_000, marginMs: 60_000 } as const;

/** Pure: the time budget of a run from what the invocation has left. */
export const workerBudgetMs = (remainingMs: number | undefined): number =>
  Math.max(0, Math.min(WORKER_BUDGET.capMs, (remainingMs ?? Number.POSITIVE_INFINITY) - WORKER_BUDGET.marginMs));

/** Pure: the delivery delay of the wake-up for work that can go on at `nextAt` (0 .. SQS's 900 s). */
export const wakeDelaySeconds = (nextAt: Date, now: Date): number =>
  Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((nextAt.getTime() - now.getTime()) / 1000)));

/** The wake-up's fields the run and the log lines use; a body that is not such JSON wakes the worker all the same. */
const labelsOf = (body: string): { investigation_id?: unknown; done_writing?: unknown; correlation_id?: unknown } => {
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
};

/** The investigations some wake-ups name, each once. */
const investigationsOf = (labels: readonly ReturnType<typeof labelsOf>[]): string[] => [
  ...new Set(labels.map((l) => l.investigation_id).filter((i) => typeof i === 'string')),
];

/** One run of the work: its time budget, and the investigations whose writers are done (their partial requests do not wait). */
export type EmbeddingRun = (timeBudgetMs: number, doneWriting: string[]) => Promise<WorkOutcome>;

export const embeddingWorker = (run: EmbeddingRun, wakeLater = wakeEmbeddingLater) =>
  withLambdaContext(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const everyMessage = event.Records.map((r) => ({ itemIdentifier: r.messageId }));
    const labels = event.Records.map((r) => labelsOf(r.body));
    const correlation = labels.map((l) => l.correlation_id).find((c): c is string => typeof c === 'string' && c.length <= 128);
    logger.appendKeys({ correlation_id: correlation ?? event.Records[0]?.messageId });
    try {
      const investigations = investigationsOf(labels);
      const doneWriting = investigationsOf(labels.filter((l) => l.done_writing === true));
      let outcome: WorkOutcome;
      try {
        outcome = await run(workerBudgetMs(context.getRemainingTimeInMillis?.()), doneWriting);
      } catch (error) {
        logger.error('embedding run failed; the wake-ups return after their visibility timeout', { error: error as Error });
        return { batchItemFailures: everyMessage };
      }
      logger.info('embedding run finished', { wakeUps: event.Records.length, investigations, outcome });
      if (outcome.next_at === null) return { batchItemFailures: [] };
      const delay = wakeDelaySeconds(outcome.next_at, new Date());
      if (await wakeLater(delay)) {
        logger.info(`embedding: work is left (${outcome.waiting} chunks wait); the worker looks again in ${delay} s`);
        return { batchItemFailures: [] };
      }
      return { batchItemFailures: everyMessage };
    } finally {
      logger.removeKeys(['correlation_id']);
    }
  });
