/**
 * The one gateway every AI call passes through (Amazon Bedrock): ConverseStream for analysis, quality and
 * judge prompts (the answer streamed, so a region that sends no first token, or stops sending, is left within
 * seconds: ai/timeouts.ts), InvokeModel for Cohere Embed (up to 96 texts a request: one request per batch).
 *
 * Per call: quality and judge calls are refused up front while the throttle shedder is hot; each
 * attempt first takes a slot of the shared per-region quota (waiting, or moving to the other region,
 * rather than being sent to be throttled), from the caller's organization's fair share; when every region
 * stays full past quotaMaxWaitMs the call throws QuotaExhaustedError, which callers treat as "wait and
 * try again at retryAt", never as the AI being unavailable; the primary region gets the retry budget for throttles,
 * 5xx and connection faults, then the same call goes to the fallback region (`[AI:fallback]`);
 * a refused request (validation, access, unknown model) fails at once. Every attempt is bounded by its
 * purpose's attempt timeout (ai/timeouts.ts): an attempt that runs past it is aborted (`[AI:Timeout]`,
 * ledger outcome 'timed_out') and its region is not tried again for this call, so a hung region costs
 * one timeout, not the retry budget. Every attempt is written to the ledger; throttles and timeouts
 * also feed the shedder (`[AI:Throttle]`, `[AI:Timeout]`).
 */
import {
  ConverseStreamCommand,
  InvokeModelCommand,
  type BedrockRuntimeClient,
  type ConverseStreamCommandInput,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { Kysely } from 'kysely';
import { bedrockClient } from '#core/aws/clients';
import { AI_MODEL_ENV, config, DEFAULT_AI_MODELS, env, ENV, type AiModels } from '#core/config';
import { database } from '#core/db/connection';
import type { AiPurpose, Database } from '#core/db/schema';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { AiRequestError, AiUnavailableError, backoffMs, classifyFailure, EmbeddingModelError } from './errors';
import { recordCall } from './ledger';
import { embeddingModelProblem, modelIdForRegion, promptCacheMinimumTokens, VECTOR_COLUMN_DIMENSIONS } from './models';
import { acquire, BACKGROUND_PRIMARY_LIMIT, QuotaExhaustedError } from './quota';
import { guardAgainstShedding, recordThrottle, recordTimeout, shedderDisabled, shedderStatus } from './shedder';
import {
  AiAttemptTimeoutError,
  FOLLOW_UP_QUOTA_MAX_WAIT_MS,
  streamBounds,
  withAttemptTimeout,
  type AttemptTimeouts,
  type AttemptTimer,
  type Progress,
} from './timeouts';

type TextPurpose = Exclude<AiPurpose, 'embedding'>;

export interface GatewayConfig {
  regions: { primary: string; fallback: string };
  models: AiModels;
  /** attempts in a region before moving on (the SDK's own retries are off so every throttle is seen) */
  attemptsPerRegion: number;
  backoff: { baseMs: number; capMs: number };
  shedderDisabled: boolean;
  /** longest wait for a quota slot when both regions are full */
  quotaMaxWaitMs: number;
  /** a follow-up call's (CallContext.followUp) longest wait, over its organization's share too */
  followUpQuotaMaxWaitMs: number;
  /** per-purpose bound of one attempt (ai/timeouts.ts); an attempt past it is aborted and the other region tried */
  attemptTimeoutMs: AttemptTimeouts;
}

export interface GatewayDeps {
  db: Kysely<Database>;
  client: (region: string) => BedrockRuntimeClient;
  config: GatewayConfig;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** each attempt's timeout timer (timeouts.ts); the real clock's by default */
  attemptTimer?: AttemptTimer;
}

interface CallContext {
  userId?: string | undefined;
  analysisId?: string | undefined;
  /** whose fair share of the quota the call takes (ai/quota.ts); none: work of no organization */
  organizationId?: string | undefined;
}

interface QuotaContext extends CallContext {
  /**
   * the call continues work that has already spent a model request (the analysis after its query's embedding, the
   * coverage check after the faithfulness check): it waits for its slot in process, over its organization's share
   * too, up to followUpQuotaMaxWaitMs, rather than give the work back and spend that request again (the throughput
   * bench measured 4.73 requests a verified analysis instead of 4, and 77 % of the quota-bound rate, without it)
   */
  followUp?: boolean | undefined;
}

interface BackgroundContext extends QuotaContext {
  /** work that can wait (embedding evidence): at most BACKGROUND_PRIMARY_LIMIT of the primary region's window (ai/quota.ts) */
  background?: boolean;
}

/**
 * Cohere Embed's input types the service uses: evidence chunks as they are stored, and the question (or topic)
 * they are searched with. The model prepends a different token to each, so a query is never embedded as a document.
 */
type EmbeddingInputType = 'search_document' | 'search_query';

/** Texts one Cohere Embed request may carry (Bedrock refuses more). */
export const EMBED_BATCH_SIZE = 96;

interface EmbedTextsContext extends BackgroundContext {
  inputType: EmbeddingInputType;
}

export interface ConverseRequest extends QuotaContext {
  purpose: TextPurpose;
  system: string;
  /**
   * the start of the user prompt that other calls send too (after the same system prompt): marked for Bedrock's
   * prompt cache when the model has one (models.ts promptCacheMinimumTokens), so a later call reads it at a tenth
   * of the input price; the model reads it followed by `prompt`, exactly as one prompt
   */
  cachedPrefix?: string;
  prompt: string;
  maxTokens?: number;
  temperature?: number;
}

interface CallResult {
  region: string;
  /** the id called in that region (a geographic inference profile is re-prefixed for the fallback region) */
  modelId: string;
  fellBack: boolean;
  attempts: number;
  latencyMs: number;
  /** inputTokens: billed at the full input price; the cache's, when a prefix was marked: read at a tenth, written at 1.25× */
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };
}

export interface ConverseResult extends CallResult {
  text: string;
}

interface EmbedTextsResult {
  /** one vector per text, in the texts' order */
  embeddings: number[][];
  /** the configured embedding model, which every vector comes from (what text_chunks.embedding_model records) */
  model: string;
  /** one per model request (⌈texts / EMBED_BATCH_SIZE⌉), in order */
  requests: CallResult[];
  /** summed over the requests (input tokens estimated: Cohere Embed on Bedrock reports none) */
  usage: CallResult['usage'];
}

export interface AiGateway {
  converse: (request: ConverseRequest) => Promise<ConverseResult>;
  /**
   * The texts' embeddings by the configured embedding model: one InvokeModel per EMBED_BATCH_SIZE texts, each
   * through the quota, fallback and ledger like every call. Throws EmbeddingModelError when the configured model
   * cannot fill the vector column (before any request) or answers vectors of another size.
   */
  embedTexts: (texts: readonly string[], context: EmbedTextsContext) => Promise<EmbedTextsResult>;
  /** the configured embedding model: the one embedTexts calls, and the only one retrieval searches the vectors of */
  embeddingModel: string;
  /** the shedder's state, for the queue-stats route */
  shedderStatus: () => Promise<{ hot: boolean; recentThrottles: number; fallbackRegion: string; disabled: boolean }>;
}

interface Attempt<T> {
  /** `modelId`: the configured id as that region must be called with it (modelIdForRegion); `progress` for each part of a streamed answer */
  send: (client: BedrockRuntimeClient, modelId: string, abortSignal: AbortSignal, progress: Progress) => Promise<T>;
  /** a streamed answer: bounded by its first token and its silences too (ai/timeouts.ts) */
  streamed?: boolean;
  usage: (out: T) => CallResult['usage'];
}

export const createAiGateway = (deps: GatewayDeps): AiGateway => {
  const { db, client, config } = deps;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { primary, fallback } = config.regions;

  const call = async <T>(
    purpose: AiPurpose,
    modelId: string,
    callContext: BackgroundContext,
    attempt: Attempt<T>,
  ): Promise<T & CallResult> => {
    const { background, followUp, ...context } = callContext;
    const regionLimits = background ? { [primary]: BACKGROUND_PRIMARY_LIMIT } : undefined;
    const failures: { region: string; error: string }[] = [];
    const timeoutMs = config.attemptTimeoutMs[purpose];
    /** regions that let an attempt of this call time out: not tried again for it */
    const timedOut = new Set<string>();
    let attempts = 0;
    for (const candidate of [
      { home: primary, regions: [primary, fallback] },
      { home: fallback, regions: [fallback] },
    ]) {
      const phase = { ...candidate, regions: candidate.regions.filter((r) => !timedOut.has(r)) };
      if (phase.regions.length === 0) continue;
      if (phase.home === fallback) {
        logger.warn('[AI:fallback]', { purpose, from: primary, to: fallback, modelId, failures, ...context });
        countEvent('aiFallbacks', primary);
      }
      for (let n = 1; n <= config.attemptsPerRegion; n++) {
        let region: string;
        try {
          region = await acquire(db, {
            regions: phase.regions,
            organizationId: context.organizationId,
            now,
            sleep,
            maxWaitMs: followUp ? config.followUpQuotaMaxWaitMs : config.quotaMaxWaitMs,
            regionLimits,
            waitOverShare: followUp,
          });
        } catch (error) {
          // a full quota is not an outage: the caller waits its turn (QuotaExhaustedError says until when)
          if (error instanceof QuotaExhaustedError) {
            logger.warn('[AI:QuotaFull]', { purpose, regions: phase.regions, retryAt: error.retryAt.toISOString(), failures, ...context });
            countEvent('aiQuotaWaits');
          }
          throw error;
        }
        attempts++;
        // a geographic profile is valid only in its own geography: the fallback region may need another prefix
        const regionModelId = modelIdForRegion(modelId, region);
        const at = now();
        const started = performance.now();
        let out: T;
        try {
          out = await withAttemptTimeout(
            attempt.streamed ? streamBounds(purpose as TextPurpose, timeoutMs) : timeoutMs,
            (signal, progress) => attempt.send(client(region), regionModelId, signal, progress),
            deps.attemptTimer,
          );
        } catch (error) {
          const kind = classifyFailure(error);
          const errorName = (error as Error).name ?? 'Error';
          const latencyMs = performance.now() - started;
          if (kind === 'throttle') await recordThrottle(db, { region, purpose, modelId: regionModelId, at, errorName, ...context });
          else if (kind === 'timeout') {
            const bound = error instanceof AiAttemptTimeoutError ? error.timeoutMs : timeoutMs;
            await recordTimeout(db, { region, purpose, modelId: regionModelId, at, errorName, latencyMs, timeoutMs: bound, ...context });
          } else await recordCall(db, { purpose, region, modelId: regionModelId, outcome: 'error', errorName, latencyMs, ...context, at });
          if (kind === 'fatal') throw new AiRequestError(region, error);
          failures.push({ region, error: `${errorName}: ${(error as Error).message}` });
          if (kind === 'timeout') {
            // a hung region: another attempt there would likely hang as long; the other region next
            timedOut.add(region);
            break;
          }
          if (n < config.attemptsPerRegion) await sleep(backoffMs(n, config.backoff.baseMs, config.backoff.capMs, deps.random));
          continue;
        }
        // the ledger write is outside the attempt's try: a database that fails it is not the AI refusing the
        // request (a hung database failed analyses as "The AI service refused the request"); its error reaches
        // the caller as the database's, and the work is retried
        const latencyMs = Math.round(performance.now() - started);
        const usage = attempt.usage(out);
        await recordCall(db, { purpose, region, modelId: regionModelId, outcome: 'ok', ...usage, latencyMs, ...context, at });
        return { ...out, region, modelId: regionModelId, fellBack: region !== primary, attempts, latencyMs, usage };
      }
    }
    logger.error('AI call failed in both regions', { purpose, modelId, failures, ...context });
    throw new AiUnavailableError(failures);
  };

  return {
    converse: async (request) => {
      const modelId = config.models[request.purpose];
      const context = { userId: request.userId, analysisId: request.analysisId, organizationId: request.organizationId };
      const quotaContext = { ...context, followUp: request.followUp };
      await guardAgainstShedding(db, {
        purpose: request.purpose,
        now: now(),
        disabled: config.shedderDisabled,
        region: primary,
        modelId: modelIdForRegion(modelId, primary),
        ...context,
      });
      const { cachedPrefix = '', prompt } = request;
      const cached = cachedPrefix !== '' && promptCacheMinimumTokens(modelId) !== undefined;
      const input: Omit<ConverseStreamCommandInput, 'modelId'> = {
        system: [{ text: request.system }],
        messages: [
          {
            role: 'user',
            content: cached
              ? [{ text: cachedPrefix }, { cachePoint: { type: 'default' } }, { text: prompt }]
              : [{ text: cachedPrefix + prompt }],
          },
        ],
        inferenceConfig: { maxTokens: request.maxTokens ?? 4096, temperature: request.temperature ?? 0 },
        // shows in Bedrock invocation logs; the twin's stand-in shapes its answer by purpose
        requestMetadata: { purpose: request.purpose, ...(request.analysisId && { analysis_id: request.analysisId }) },
      };
      const out = await call(request.purpose, modelId, quotaContext, {
        streamed: true,
        send: async (c, regionModelId, abortSignal, progress) => {
          const res = await c.send(new ConverseStreamCommand({ modelId: regionModelId, ...input }), { abortSignal });
          let text = '';
          let usage: TokenUsage | undefined;
          for await (const event of res.stream ?? []) {
            progress();
            if (event.contentBlockDelta?.delta?.text) text += event.contentBlockDelta.delta.text;
            if (event.metadata?.usage) usage = event.metadata.usage;
            // an error inside the stream is the service's, as the same error before it would be (throttle, 5xx, validation)
            const failure =
              event.throttlingException ??
              event.serviceUnavailableException ??
              event.internalServerException ??
              event.modelStreamErrorException ??
              event.validationException;
            if (failure) throw failure;
          }
          return { text, usage };
        },
        usage: (res) => ({
          inputTokens: res.usage?.inputTokens ?? 0,
          outputTokens: res.usage?.outputTokens ?? 0,
          ...(cached && { cacheReadTokens: res.usage?.cacheReadInputTokens ?? 0, cacheWriteTokens: res.usage?.cacheWriteInputTokens ?? 0 }),
        }),
      });
      return {
        text: out.text,
        region: out.region,
        modelId: out.modelId,
        fellBack: out.fellBack,
        attempts: out.attempts,
        latencyMs: out.latencyMs,
        usage: out.usage,
      };
    },

    embeddingModel: config.models.embedding,

    embedTexts: async (texts, { inputType, ...context }) => {
      const model = config.models.embedding;
      const problem = embeddingModelProblem(model);
      if (problem) throw new EmbeddingModelError(problem);
      const embeddings: number[][] = [];
      const requests: CallResult[] = [];
      for (let from = 0; from < texts.length; from += EMBED_BATCH_SIZE) {
        const batch = texts.slice(from, from + EMBED_BATCH_SIZE);
        // truncate END: a text longer than the model reads is cut rather than refused (chunks are far shorter)
        const body = JSON.stringify({ texts: batch, input_type: inputType, truncate: 'END', embedding_types: ['float'] });
        const { vectors, ...request } = await call('embedding', model, context, {
          send: async (c, regionModelId, abortSignal) => {
            const res = await c.send(
              new InvokeModelCommand({ modelId: regionModelId, contentType: 'application/json', accept: 'application/json', body }),
              { abortSignal },
            );
            return { vectors: floatEmbeddings(JSON.parse(new TextDecoder().decode(res.body))) };
          },
          usage: () => ({ inputTokens: batch.reduce((sum, text) => sum + estimatedTokens(text), 0), outputTokens: 0 }),
        });
        checkVectors(vectors, batch.length, model);
        embeddings.push(...vectors);
        requests.push(request);
      }
      const usage = {
        inputTokens: requests.reduce((sum, r) => sum + r.usage.inputTokens, 0),
        outputTokens: 0,
      };
      return { embeddings, model, requests, usage };
    },

    shedderStatus: () => shedderStatus(db, { now: now(), disabled: config.shedderDisabled, fallbackRegion: fallback }),
  };
};

/** Estimated input tokens of a text: one per four characters, as Bedrock's Cohere Embed documentation counts them. */
const estimatedTokens = (text: string): number => Math.ceil(text.length / 4);

/** The float vectors of a Cohere Embed answer: `embeddings` is a list (embeddings_floats) or by type (embeddings_by_type). */
const floatEmbeddings = (answer: unknown): unknown => {
  const embeddings = (answer as { embeddings?: unknown } | null)?.embeddings;
  return Array.isArray(embeddings) ? embeddings : (embeddings as { float?: unknown } | undefined)?.float;
};

/** One vector per text, each the size of the vector column; anything else is the configured model's doing, not the texts'. */
function checkVectors(vectors: unknown, texts: number, model: string): asserts vectors is number[][] {
  if (!Array.isArray(vectors) || vectors.length !== texts)
    throw new EmbeddingModelError(
      `'${model}' answered ${Array.isArray(vectors) ? vectors.length : 'no'} float embeddings for ${texts} texts`,
    );
  const wrong = vectors.find((v) => !Array.isArray(v) || v.length !== VECTOR_COLUMN_DIMENSIONS) as unknown;
  if (wrong !== undefined)
    throw new EmbeddingModelError(
      `'${model}' answered ${Array.isArray(wrong) ? wrong.length : 'non'}-dimensional vectors; text_chunks.embedding is vector(${VECTOR_COLUMN_DIMENSIONS})`,
    );
}

/** Configuration from the environment (set by CDK per function; by the twin locally), with code defaults. */
export const gatewayConfigFromEnv = (): GatewayConfig => ({
  regions: { primary: env(ENV.aiPrimaryRegion) ?? 'us-east-1', fallback: env(ENV.aiFallbackRegion) ?? 'us-west-2' },
  models: Object.fromEntries(
    Object.entries(DEFAULT_AI_MODELS).map(([purpose, id]) => [purpose, env(AI_MODEL_ENV[purpose as keyof AiModels]) ?? id]),
  ) as unknown as AiModels,
  attemptsPerRegion: 3,
  backoff: { baseMs: 200, capMs: 2_000 },
  shedderDisabled: shedderDisabled(),
  // a worker waits this long in process for a slot; a longer wait frees the worker and its message comes
  // back when the slot frees (QuotaExhaustedError), so a full quota costs queue delay, not Lambda time
  quotaMaxWaitMs: 10_000,
  // longer for a follow-up: giving its work back would spend again the request it has already made
  followUpQuotaMaxWaitMs: FOLLOW_UP_QUOTA_MAX_WAIT_MS,
  attemptTimeoutMs: config()[ENV.aiAttemptTimeoutMs],
});

let shared: AiGateway | undefined;

/** The process-wide gateway over the process-wide database. */
export const aiGateway = async (): Promise<AiGateway> => {
  if (!shared) {
    const db = await database();
    shared ??= createAiGateway({ db, client: (region) => bedrockClient(region, { maxAttempts: 1 }), config: gatewayConfigFromEnv() });
  }
  return shared;
};
