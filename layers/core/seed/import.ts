/**
 * Loading a seed file into a deployed stage or the running twin (`npm run seed -- --stage <stage> | --twin --file …`),
 * whose database sits in isolated subnets: the `import-investigations` operator function hands the CLI a short-lived
 * presigned PUT for `seeds/<uuid>.json` in the files bucket (the operator needs no S3 grant and no bucket name), then
 * loads that object: the organizations, users, investigations, questions and topics in one transaction (load.ts), and
 * each investigation's evidence and background documents as a bulk import in the seed format — the same path an
 * investigator's import takes (ingestion/import-run.ts), processed in the background by the import worker. `status`
 * reports those imports, so the CLI can wait for them. The bucket expires `seeds/` and `imports/`.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { s3Client } from '#core/aws/clients';
import type { Database } from '#core/db/schema';
import type { ImportStatus } from '#core/domain/vocabulary';
import { IMPORT_CONTENT_TYPE } from '#core/ingestion/imports';
import { IMPORT_LIMITS, importKey, uploadDeadline } from '#core/ingestion/uploads';
import { checkWith, describeIssues } from '#core/strings';
import { s3Storage } from '#core/storage';
import { FILE_PREFIXES } from '#manifest/runtime-names';
import { validateSeed } from './format';
import { loadSeed, SeedConflictError, SeedValidationError, type SeedSummary } from './load';
import { ifUsed } from '#core/if-used';

const SEED_KEY = new RegExp(`^${FILE_PREFIXES.seeds}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.json$`);
/** long enough for a slow upload of a large file, short enough to be useless later */
const UPLOAD_URL_SECONDS = 900;

const importRequestSchema = /* @__PURE__ */ ifUsed(() =>
  z.discriminatedUnion(
    'command',
    [
      z.strictObject({ command: z.literal('upload-url') }),
      z.strictObject({
        command: z.literal('load'),
        key: z.string().regex(SEED_KEY, `must be the key an upload-url answer named (${FILE_PREFIXES.seeds}<uuid>.json)`),
      }),
      z.strictObject({ command: z.literal('status'), import_ids: z.array(z.uuid()).min(1).max(1000) }),
    ],
    { error: 'command must be upload-url, load or status' },
  ),
);

/** A refusal the operator can act on: nothing was loaded. */
export class ImportRefusal extends Error {
  override readonly name = 'ImportRefusal';
}

interface StartedImport {
  import_id: string;
  investigation_id: string;
  title: string;
}

export type LoadSummary = SeedSummary & { imports: StartedImport[] };

export interface ImportState {
  import_id: string;
  investigation_id: string;
  status: ImportStatus;
  lines_total: number | null;
  lines_done: number;
  lines_failed: number;
  error: string | null;
}

const uploadUrl = async (bucket: string): Promise<{ key: string; url: string; expires_in: number }> => {
  const key = `${FILE_PREFIXES.seeds}${randomUUID()}.json`;
  const url = await getSignedUrl(s3Client(), new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: 'application/json' }), {
    expiresIn: UPLOAD_URL_SECONDS,
  });
  return { key, url, expires_in: UPLOAD_URL_SECONDS };
};

const readSeed = async (bucket: string, key: string): Promise<unknown> => {
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

/** Loads the file's organizations, people and investigations, and starts one import per investigation with evidence. */
const load = async (deps: { db: Kysely<Database>; bucket: string }, input: unknown): Promise<LoadSummary> => {
  const validation = validateSeed(input);
  if (!validation.ok) throw new ImportRefusal(new SeedValidationError(validation.issues).message);
  let summary: SeedSummary;
  try {
    summary = await loadSeed(deps.db, input, { evidence: false });
  } catch (error) {
    if (error instanceof SeedConflictError) throw new ImportRefusal(error.message);
    throw error;
  }
  const storage = s3Storage(deps.bucket);
  const imports: StartedImport[] = [];
  const investigations = validation.data.organizations.flatMap((org) => org.investigations);
  for (const [i, written] of summary.investigations.entries()) {
    const { questions, evidence, background_documents } = investigations[i]!;
    if (evidence.length === 0 && !background_documents?.length) continue;
    const body = JSON.stringify({ questions, evidence, background_documents: background_documents ?? [] });
    const importId = randomUUID();
    await deps.db
      .insertInto('imports')
      .values({
        id: importId,
        investigation_id: written.id,
        format: 'seed',
        size_bytes: Buffer.byteLength(body),
        storage_key: importKey(importId),
        status: 'queued',
        upload_deadline: uploadDeadline(new Date(), IMPORT_LIMITS.urlSeconds),
      })
      .execute();
    // the object's arrival starts the import worker (the imports queue hears of imports/)
    await storage.put(importKey(importId), body, IMPORT_CONTENT_TYPE.seed);
    imports.push({ import_id: importId, investigation_id: written.id, title: written.title });
  }
  return { ...summary, imports };
};

const status = async (db: Kysely<Database>, importIds: readonly string[]): Promise<ImportState[]> =>
  (
    await db
      .selectFrom('imports')
      .select(['id', 'investigation_id', 'status', 'lines_total', 'lines_done', 'lines_failed', 'error_message'])
      .where('id', 'in', [...importIds])
      .orderBy('created_at')
      .execute()
  ).map(({ id, error_message, ...row }) => ({ import_id: id, ...row, error: error_message }));

export const runImport = async (
  deps: { db: Kysely<Database>; bucket: string },
  input: unknown,
): Promise<{ key: string; url: string; expires_in: number } | LoadSummary | ImportState[]> => {
  const checked = checkWith(importRequestSchema, input);
  if (!checked.ok) throw new ImportRefusal(describeIssues(checked.issues));
  switch (checked.data.command) {
    case 'upload-url':
      return uploadUrl(deps.bucket);
    case 'load':
      return load(deps, await readSeed(deps.bucket, checked.data.key));
    case 'status':
      return status(deps.db, checked.data.import_ids);
  }
};
