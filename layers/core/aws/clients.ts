/**
 * AWS SDK clients, one per process, with the function's role and region: in AWS, and in the twin, where
 * a function's AWS hostnames lead to the twin's AWS edge (docs/twin.md). Tools run outside a function
 * (the eval CLI, the seed loader) may point them elsewhere with the SDK's own endpoint variables
 * (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_BEDROCK_RUNTIME, …).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { env, ENV } from '#core/config';
import { cachedClient } from './client-cache';

export const sqsClient = (): SQSClient => cachedClient(`sqs ${env(ENV.sqsEndpoint) ?? ''}`, () => new SQSClient({}));

/**
 * fauxqs (like most S3 stand-ins) needs path-style addressing. Checksums only where S3 requires them: by default
 * the SDK would put a CRC32 of the empty body into a presigned upload URL, and S3 would refuse the real file (BadDigest).
 */
export const s3Client = (): S3Client => {
  const endpoint = env(ENV.s3Endpoint);
  return cachedClient(
    `s3 ${endpoint ?? ''}`,
    () => new S3Client({ forcePathStyle: endpoint !== undefined, requestChecksumCalculation: 'WHEN_REQUIRED' }),
  );
};

export interface BedrockClientOptions {
  /** SDK retry budget per region; the AI gateway falls back to the other region once it is spent */
  maxAttempts?: number;
}

/**
 * A Bedrock Runtime client for one region. The SDK speaks HTTP/2 to Bedrock by default (the twin's edge
 * does too); the stand-in's own endpoint is plain HTTP/1.1, so an explicit endpoint gets the HTTP/1.1 handler.
 */
export const bedrockClient = (region: string, options: BedrockClientOptions = {}): BedrockRuntimeClient => {
  const endpoint = env(ENV.bedrockEndpoint);
  return cachedClient(
    `bedrock ${region} ${options.maxAttempts ?? 'default'} ${endpoint ?? ''}`,
    () =>
      new BedrockRuntimeClient({
        region,
        ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
        ...(endpoint !== undefined && { requestHandler: new NodeHttpHandler() }),
      }),
  );
};
