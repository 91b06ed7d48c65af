/**
 * The payment processor's webhook signing secret. In AWS it lives in Secrets Manager
 * (WEBHOOK_SECRET_ARN, read once per container; the stack creates a placeholder to replace with the
 * processor's value); the twin passes the value itself in WEBHOOK_SECRET (.twin/webhook-secret,
 * created on first start like the cron secret).
 */
import { env, ENV } from '../config';

/**
 * A secret read from its direct variable, else from Secrets Manager by the ARN variable; cached per
 * process once read, read again after a failure. undefined when neither variable is set.
 */
export const secretReader = (directVar: string, arnVar: string): (() => Promise<string | undefined>) => {
  let cached: Promise<string | undefined> | undefined;
  return () => {
    cached ??= (async () => {
      const direct = env(directVar);
      if (direct) return direct;
      const arn = env(arnVar);
      if (!arn) return undefined;
      const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
      return (await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
    })().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
};

export const webhookSecret = secretReader(ENV.webhookSecret, ENV.webhookSecretArn);
