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
  embeddingDimensions: 1024,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_DEFAULTS_MS,
  ...overrides,
});
