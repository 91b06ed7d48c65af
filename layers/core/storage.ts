/** The files bucket (attachments, background documents). */
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#core/aws/clients';
import { ENV, requireEnv } from './config';

export interface ObjectStorage {
  put: (key: string, body: string | Uint8Array, contentType: string) => Promise<void>;
}

export const s3Storage = (bucket = requireEnv(ENV.filesBucket)): ObjectStorage => ({
  put: async (key, body, contentType) => {
    await s3Client().send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ServerSideEncryption: 'AES256' }),
    );
  },
});

export interface ObjectRemover {
  /** deletes the objects; keys that are already gone are no error (S3 answers 204 either way) */
  remove: (keys: readonly string[]) => Promise<void>;
}

/** One DeleteObject per key: the grant is s3:DeleteObject under one prefix, and an item holds at most 50 files. */
export const s3Remover = (bucket = requireEnv(ENV.filesBucket)): ObjectRemover => ({
  remove: async (keys) => {
    for (const key of keys) await s3Client().send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  },
});
