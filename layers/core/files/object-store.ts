/**
 * Reading the files bucket: a file's bytes (for text extraction) and short-lived presigned GET URLs
 * (for the file viewer). Writing is layers/core/storage.ts. In the twin the same client talks to
 * fauxqs's S3, so the presigned URLs point there and download for real.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#core/aws/clients';
import { ENV, requireEnv } from '#core/config';

export interface ViewUrlOptions {
  /** Content-Disposition S3 answers with (response-content-disposition) */
  contentDisposition: string;
  /** Content-Type S3 answers with (response-content-type) */
  contentType: string;
  expiresInSeconds: number;
}

type ReadResult =
  | { status: 'ok'; bytes: Uint8Array }
  | { status: 'missing' }
  /** larger than the limit: not downloaded */
  | { status: 'too_large'; sizeBytes: number };

export interface FileReader {
  read: (key: string, maxBytes: number) => Promise<ReadResult>;
}

export interface FileLinker {
  viewUrl: (key: string, options: ViewUrlOptions) => Promise<string>;
}

const isMissing = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

export const s3FileReader = (bucket = requireEnv(ENV.filesBucket)): FileReader => ({
  read: async (key, maxBytes) => {
    let response;
    try {
      response = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return { status: 'missing' };
      throw error;
    }
    const size = response.ContentLength ?? 0;
    if (size > maxBytes || !response.Body) {
      // the body is a stream the SDK leaves open until read or destroyed
      (response.Body as { destroy?: () => void } | undefined)?.destroy?.();
      return size > maxBytes ? { status: 'too_large', sizeBytes: size } : { status: 'ok', bytes: new Uint8Array() };
    }
    return { status: 'ok', bytes: await response.Body.transformToByteArray() };
  },
});

export const s3FileLinker = (bucket = requireEnv(ENV.filesBucket)): FileLinker => ({
  viewUrl: (key, { contentDisposition, contentType, expiresInSeconds }) =>
    getSignedUrl(
      s3Client(),
      new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentDisposition: contentDisposition,
        ResponseContentType: contentType,
      }),
      { expiresIn: expiresInSeconds },
    ),
});
