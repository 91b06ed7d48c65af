/** The files bucket (attachments, background documents). */
import { PutObjectCommand } from '@aws-sdk/client-s3';
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
