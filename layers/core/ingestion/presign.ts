/**
 * Presigned uploads to the files bucket. The URL is signed by the function's role (its PutObject grant under one
 * prefix: lib/stacks/service-resources.ts) for one key, and binds the body's length and type: S3 refuses an upload
 * whose Content-Length or Content-Type differs from the signed ones (SignatureDoesNotMatch), so a client cannot
 * put a larger file, or another kind, than the one the API accepted. A browser's PUT sends Content-Length from
 * its body by itself; the answer names the one header the client must set.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#core/aws/clients';
import { ENV, requireEnv } from '#core/config';

export interface Upload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
}

export interface UploadRequest {
  key: string;
  contentType: string;
  sizeBytes: number;
  expiresInSeconds: number;
}

export type Presigner = (request: UploadRequest) => Promise<Upload>;

/** S3 signs these headers as well as the host: the upload must send exactly their values. */
const BOUND_HEADERS = new Set(['content-length', 'content-type']);

export const s3Presigner =
  (bucket = requireEnv(ENV.filesBucket), now: () => Date = () => new Date()): Presigner =>
  async ({ key, contentType, sizeBytes, expiresInSeconds }) => {
    const issued = now();
    const url = await getSignedUrl(
      s3Client(),
      new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes }),
      { expiresIn: expiresInSeconds, signableHeaders: BOUND_HEADERS, signingDate: issued },
    );
    return {
      url,
      method: 'PUT',
      headers: { 'content-type': contentType },
      expires_at: new Date(issued.getTime() + expiresInSeconds * 1000).toISOString(),
    };
  };
