/**
 * The model capacity the analysis workers are sized for (issue 29, item 1). The spec's quota and the requests an
 * analysis makes give the analyses a minute the service can make; by Little's law (in flight = rate × time held), the
 * models' latency gives how many of each worker must run at once to make them. Pure data, like the rest of manifest/.
 *
 * Below the plan, the quota is not reached: with 5 workers of each (before this), a 30 s analysis kept the service at
 * about 10 analyses a minute. Above it, the extra workers wait for quota slots (ai/quota.ts: at most 10 s in process,
 * 20 s for a follow-up call, then their message comes back when a slot frees), which costs Lambda time but loses nothing.
 * `npm run bench -- throughput` measures the rate reached with the stand-in at Bedrock's pace.
 */

/** SPEC "Model request quota": requests in any window of this length, in each region */
export const QUOTA_LIMIT = 50;
export const QUOTA_WINDOW_MS = 60_000;
/** the primary region and the fallback, which takes requests when the primary's window is full */
const AI_REGION_COUNT = 2;
/** an analysis's model requests: the query's embedding and the answer (generation worker), the two checks (quality worker) */
export const MODEL_REQUESTS_PER_ANALYSIS = 4;
/** the analyses a minute the quota allows, every region's requests used */
export const ANALYSES_PER_MINUTE_AT_QUOTA = (QUOTA_LIMIT * AI_REGION_COUNT * (60_000 / QUOTA_WINDOW_MS)) / MODEL_REQUESTS_PER_ANALYSIS;

/**
 * Seconds a worker holds one analysis, planned at the slow end of the models' usual latency: a Sonnet answer of an
 * analysis streams for 20–40 s, a Haiku check answers in 3–8 s (two in turn), an embedding in under a second; plus
 * the database work around them.
 */
const PLANNED_SECONDS = { generation: 1 + 40 + 2, quality: 2 * 8 + 1 };
/** room for latency above the plan and for the quota's waits, so that a slower hour still reaches the quota */
const HEADROOM = 1.2;

/**
 * The workers' maximum concurrency for the quota-bound rate. Their batches stay one message each: a batch is handled
 * in turn by one invocation, so a second analysis in it would wait the first one's whole answer.
 */
export const ANALYSIS_WORKER_CONCURRENCY = {
  generation: Math.ceil((ANALYSES_PER_MINUTE_AT_QUOTA / 60) * PLANNED_SECONDS.generation * HEADROOM),
  quality: Math.ceil((ANALYSES_PER_MINUTE_AT_QUOTA / 60) * PLANNED_SECONDS.quality * HEADROOM),
} as const;
