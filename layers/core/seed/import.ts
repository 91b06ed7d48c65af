/**
 * Loading a seed file into a deployed stage (`npm run seed -- --stage <stage> --file …`), whose database
 * sits in isolated subnets: the `import-investigations` operator function hands the CLI a short-lived
 * presigned PUT for `imports/<uuid>.json` in the files bucket (the operator needs no S3 grant and no
 * bucket name), then loads that object with the same loader as everywhere (load.ts: one transaction,
 * files under `org/…`, a pending embedding per source for the sweeper). The bucket expires `imports/`.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { s3Client } from '#core/aws/clients';
import type { Database } from '#core/db/schema';
import { checkWith, describeIssues } from '#core/strings';
import { s3Storage } from '#core/storage';
import { loadSeed, SeedConflictError, SeedValidationError, type SeedSummary } from './load';

/** Where uploaded seed files wait (the files bucket expires them: lib/stacks/data-stack.ts). */
const IMPORTS_PREFIX = 'imports/';
const IMPORT_KEY = /^imports\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;
/** long enough for a slow upload of a large file, short enough to be useless later */
const UPLOAD_URL_SECONDS = 900;

const importRequestSchema = z.discriminatedUnion(
  'command',
  [
    z.strictObject({ command: z.literal('upload-url') }),
    z.strictObject({
      command: z.literal('load'),
      key: z.string().regex(IMPORT_KEY, 'must be the key an upload-url answer named (imports/<uuid>.json)'),
    }),
  ],
  { error: 'command must be upload-url or load' },
);

/** A refusal the operator can act on: nothing was loaded. */
export class ImportRefusal extends Error {
  override readonly name = 'ImportRefusal';
}

const uploadUrl = async (bucket: string): Promise<{ key: string; url: string; expires_in: number }> => {
  const key = `${IMPORTS_PREFIX}${randomUUID()}.json`;
  const url = await getSignedUrl(s3Client(), new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: 'application/json' }), {
    expiresIn: UPLOAD_URL_SECONDS,
  });
  return { key, url, expires_in: UPLOAD_URL_SECONDS };
};

const readImport = async (bucket: string, key: string): Promise<unknown> => {
  let text: string;
  try {
    const object = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    text = await object.Body!.transformToString('utf8');
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey')
      throw new ImportRefusal(`nothing was uploaded to ${key} (or it has expired): upload the file first`);
    throw error;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new ImportRefusal(`${key} is not valid JSON: ${(error as Error).message}`);
  }
};

export const runImport = async (
  deps: { db: Kysely<Database>; bucket: string },
  input: unknown,
): Promise<{ key: string; url: string; expires_in: number } | SeedSummary> => {
  const checked = checkWith(importRequestSchema, input);
  if (!checked.ok) throw new ImportRefusal(describeIssues(checked.issues));
  if (checked.data.command === 'upload-url') return uploadUrl(deps.bucket);
  const file = await readImport(deps.bucket, checked.data.key);
  try {
    return await loadSeed(deps.db, file, { storage: s3Storage(deps.bucket) });
  } catch (error) {
    if (error instanceof SeedValidationError || error instanceof SeedConflictError) throw new ImportRefusal(error.message);
    throw error;
  }
};
