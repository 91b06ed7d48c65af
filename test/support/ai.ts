/** The AI gateway's configuration in the gateway tests: the two AI regions, the default models, fast backoff. */
import type { GatewayConfig } from '#core/ai/gateway';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS } from '#core/ai/timeouts';
import { DEFAULT_AI_MODELS } from '#core/config';

export const PRIMARY = 'us-east-1';
export const FALLBACK = 'us-west-2';

export const gatewayConfig = (overrides: Partial<GatewayConfig> = {}): GatewayConfig => ({
  regions: { primary: PRIMARY, fallback: FALLBACK },
  models: DEFAULT_AI_MODELS,
  attemptsPerRegion: 3,
  backoff: { baseMs: 100, capMs: 1000 },
  shedderDisabled: false,
  quotaMaxWaitMs: 0,
  followUpQuotaMaxWaitMs: 0,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_DEFAULTS_MS,
  ...overrides,
});

/**
 * A fake gateway's embedTexts: every text gets `vector`, from the configured embedding model (the model the test's
 * chunks are recorded with: retrieval searches that model's vectors only). `calls` counts the calls.
 */
export const fakeEmbedTexts = (vector: number[], calls: { embed: number } = { embed: 0 }) => ({
  embeddingModel: DEFAULT_AI_MODELS.embedding,
  embedTexts: async (texts: readonly string[]) => {
    calls.embed += 1;
    return {
      embeddings: texts.map(() => vector),
      model: DEFAULT_AI_MODELS.embedding,
      requests: [],
      usage: { inputTokens: 1, outputTokens: 0 },
    };
  },
});
