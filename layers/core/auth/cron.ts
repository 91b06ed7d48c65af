/**
 * The scheduler's bearer secret for /api/admin/cron/* routes, compared in constant time. In AWS the
 * secret lives in Secrets Manager (CRON_SECRET_ARN, read once per container); the twin passes it in
 * CRON_SECRET.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { env, ENV } from '../config';

let cached: Promise<string | undefined> | undefined;

export const cronSecret = (): Promise<string | undefined> => {
  cached ??= (async () => {
    const direct = env(ENV.cronSecret);
    if (direct) return direct;
    const arn = env(ENV.cronSecretArn);
    if (!arn) return undefined;
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    return out.SecretString;
  })().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
};

/** Equal-length digests, so neither content nor length leaks through timing. */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
