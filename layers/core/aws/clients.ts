/**
 * AWS SDK clients, one per process. In AWS they use the function's role and region. In the twin the
 * SDK's own service-specific endpoint variables point them at the local stand-ins
 * (AWS_ENDPOINT_URL_SQS / _S3 at fauxqs, AWS_ENDPOINT_URL_BEDROCK_RUNTIME at the Bedrock stand-in).
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { env, ENV } from '../config';
import { cachedClient } from './client-cache';

export const sqsClient = (): SQSClient => cachedClient(`sqs ${env('AWS_ENDPOINT_URL_SQS') ?? ''}`, () => new SQSClient({}));

/** fauxqs (like most S3 stand-ins) needs path-style addressing. */
export const s3Client = (): S3Client => {
  const endpoint = env('AWS_ENDPOINT_URL_S3');
  return cachedClient(`s3 ${endpoint ?? ''}`, () => new S3Client({ forcePathStyle: endpoint !== undefined }));
};


export interface BedrockClientOptions {
  /** SDK retry budget per region; the AI gateway falls back to the other region once it is spent */
  maxAttempts?: number;
}

/**
 * A Bedrock Runtime client for one region. The SDK speaks HTTP/2 to Bedrock by default; the local
 * stand-in is plain HTTP/1.1, so an explicit endpoint gets the HTTP/1.1 handler.
 */
export const bedrockClient = (region: string, options: BedrockClientOptions = {}): BedrockRuntimeClient => {
  const endpoint = env(ENV.bedrockEndpoint);
  return cachedClient(`bedrock ${region} ${options.maxAttempts ?? 'default'} ${endpoint ?? ''}`, () => new BedrockRuntimeClient({
    region,
    ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
    ...(endpoint !== undefined && { requestHandler: new NodeHttpHandler() }),
  }));
};
