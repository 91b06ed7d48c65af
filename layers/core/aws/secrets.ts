/**
 * Secrets from Secrets Manager, by the ARN in the function's environment (in AWS, and in the twin, whose
 * Secrets Manager serves the synthesized secrets). Read once per container and cached; read again after a failure.
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

/** A reader of one secret: the secret whose ARN the variable holds; undefined when the variable is not set. */
export const secretReader = (arnVar: string): (() => Promise<string | undefined>) => {
  let cached: Promise<string | undefined> | undefined;
  return () => {
    cached ??= (async () => {
      const arn = env(arnVar);
      return arn ? secretString(arn) : undefined;
    })().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
};
