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

let sqs: SQSClient | undefined;
let s3: S3Client | undefined;
const bedrock = new Map<string, BedrockRuntimeClient>();

export const sqsClient = (): SQSClient => (sqs ??= new SQSClient({}));

/** fauxqs (like most S3 stand-ins) needs path-style addressing. */
export const s3Client = (): S3Client => (s3 ??= new S3Client({ forcePathStyle: env('AWS_ENDPOINT_URL_S3') !== undefined }));

export interface BedrockClientOptions {
  /** SDK retry budget per region; the AI gateway falls back to the other region once it is spent */
  maxAttempts?: number;
}

/**
 * A Bedrock Runtime client for one region. The SDK speaks HTTP/2 to Bedrock by default; the local
 * stand-in is plain HTTP/1.1, so an explicit endpoint gets the HTTP/1.1 handler.
 */
export const bedrockClient = (region: string, options: BedrockClientOptions = {}): BedrockRuntimeClient => {
  const key = `${region}:${options.maxAttempts ?? 'default'}`;
  let client = bedrock.get(key);
  if (!client) {
    const local = env(ENV.bedrockEndpoint) !== undefined;
    client = new BedrockRuntimeClient({
      region,
      ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
      ...(local && { requestHandler: new NodeHttpHandler() }),
    });
    bedrock.set(key, client);
  }
  return client;
};
