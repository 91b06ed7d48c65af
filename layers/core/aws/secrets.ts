/**
 * Secrets from Secrets Manager, by the ARN in the function's environment (in AWS, and in the twin, whose
 * Secrets Manager serves the synthesized secrets), through Powertools Parameters: each value is cached
 * for SECRET_MAX_AGE_SECONDS, then read again; a failed read is not cached.
 */
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { env } from '#core/config';

/**
 * How long a read secret is trusted. Short enough that a rotated cron or webhook secret is
 * picked up by warm containers within minutes (no cold start needed); long enough that a busy function
 * reads it about once per container per 5 minutes, not once per request.
 */
export const SECRET_MAX_AGE_SECONDS = 300;

let provider: SecretsProvider | undefined;

/** The secret's string value (Parameters and the SDK are loaded on first use, so functions without secrets do not pay for them). */
const secretString = async (arn: string): Promise<string | undefined> => {
  if (!provider) {
    const { SecretsProvider } = await import('@aws-lambda-powertools/parameters/secrets');
    provider ??= new SecretsProvider();
  }
  const value = await provider.get(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
  return typeof value === 'string' ? value : undefined;
};

/** A reader of one secret: the secret whose ARN the variable holds; undefined when the variable is not set. */
export const secretReader =
  (arnVar: string): (() => Promise<string | undefined>) =>
  async () => {
    const arn = env(arnVar);
    return arn ? secretString(arn) : undefined;
  };
