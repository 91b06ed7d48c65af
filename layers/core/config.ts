/**
 * Runtime configuration: the environment parsed once, on first use at cold start (a function's variables
 * do not change while it runs). The CDK stacks set the variables on each Lambda (only those its manifest
 * entry needs); the local twin runs each function with exactly those. Their names are in
 * manifest/runtime-names.ts; every variable, its default and its meaning is in the README's configuration table.
 */
import * as z from 'zod';
import { ENV, SERVICE_NAME, type EnvName } from '#manifest/runtime-names';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS, parseAttemptTimeouts } from '#core/ai/timeouts';
import { parseMinSimilarity } from '#core/analysis/similarity-floor';
import { ifUsed } from '#core/if-used';

export { AI_MODEL_ENV, DEFAULT_AI_MODELS, ENV, type AiModels } from '#manifest/runtime-names';

/** A value checked by a rule of its own module; the rule's message becomes the issue's. */
const parsedBy = <T>(parse: (raw: string) => T) =>
  z.string().transform((raw, ctx) => {
    try {
      return parse(raw);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const integer =
  (min: number) =>
  (raw: string): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`must be an integer of at least ${min}, got '${raw}'`);
    return value;
  };

/** The variables with a type beyond text; the others are read as text (`env`). Unset or empty means the code's default. */
const SCHEMA = /* @__PURE__ */ ifUsed(() =>
  z.object({
    [ENV.analysisLeaseSeconds]: parsedBy(integer(1)).optional(),
    [ENV.generationCap]: parsedBy(integer(1)).optional(),
    [ENV.retrievalMinSimilarity]: parsedBy(parseMinSimilarity).optional(),
    [ENV.aiAttemptTimeoutMs]: parsedBy(parseAttemptTimeouts).default(() => ({ ...ATTEMPT_TIMEOUT_DEFAULTS_MS })),
    [ENV.responseValidation]: z.enum(['strict', 'off']).default('off'),
    [ENV.aiShedderDisabled]: z
      .string()
      .optional()
      .transform((raw) => ['true', '1'].includes((raw ?? '').trim().toLowerCase())),
  }),
);

export type Config = z.infer<typeof SCHEMA> & {
  /** every service variable as text; unset and empty are both undefined */
  text: Readonly<Partial<Record<EnvName, string>>>;
};

const NAMES: ReadonlySet<string> = new Set(Object.values(ENV));

/** Parses an environment; a malformed value throws naming its variable. */
export const parseConfig = (source: Readonly<Record<string, string | undefined>>): Config => {
  const text = Object.fromEntries(Object.values(ENV).flatMap((name) => (source[name] ? [[name, source[name]]] : []))) as Config['text'];
  const result = SCHEMA.safeParse(text);
  if (!result.success) {
    throw new Error(result.error.issues.map((issue) => `environment variable ${String(issue.path[0])}: ${issue.message}`).join('; '));
  }
  return { ...result.data, text };
};

let parsed: Config | undefined;

export const config = (): Config => (parsed ??= parseConfig(process.env));

/** Tests and local tools that set variables on their own process have it parsed again; a function never does. */
export const reloadConfig = (): void => {
  parsed = undefined;
};

/** A service variable as text (unset or empty: undefined); a name outside manifest/runtime-names.ts is a bug and throws. */
export const env = (name: string): string | undefined => {
  if (!NAMES.has(name)) throw new Error(`${name} is not a service variable (manifest/runtime-names.ts)`);
  return config().text[name as EnvName];
};

export const requireEnv = (name: string): string => {
  const value = env(name);
  if (value === undefined) throw new Error(`environment variable ${name} is not set`);
  return value;
};

/** Powertools' service name: the `service` of log lines, traces and metrics (the stage's in AWS: lib/stacks/service-function.ts). */
export const serviceName = (): string => env(ENV.serviceName) ?? SERVICE_NAME;
