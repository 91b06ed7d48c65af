/**
 * Secrets: a value from its direct variable (the twin, tests), else from Secrets Manager by the ARN
 * variable (AWS). Read once per container and cached; read again after a failure.
 */
import { env } from '../config';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

/** The secret's string value (the SDK is loaded on first use, so functions without secrets do not pay for it). */
export const secretString = async (arn: string): Promise<string | undefined> => {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  client ??= new SecretsManagerClient({});
  return (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
};

/** A reader of one secret: the direct variable's value, else the ARN variable's secret; undefined when neither is set. */
export const secretReader = (directVar: string, arnVar: string): (() => Promise<string | undefined>) => {
  let cached: Promise<string | undefined> | undefined;
  return () => {
    cached ??= (async () => {
      const direct = env(directVar);
      if (direct) return direct;
      const arn = env(arnVar);
      return arn ? secretString(arn) : undefined;
    })().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
};
