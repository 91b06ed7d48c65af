/**
 * A file arrived in the files bucket (its S3 "Object Created" event, by way of EventBridge and the ingestion queue):
 * extract its text, chunk it, wake the embedding worker. What the file's key names decides which row it is; a key
 * the service did not issue, a file already extracted (a repeated event) or deleted meanwhile is nothing to do.
 *
 * A file that cannot be read (another format, damaged, empty, too long) is recorded as such on its row and done with:
 * retrying cannot help. A failure of the service's own (storage, the database) is thrown, so the message comes back;
 * each delivery counts an attempt on the row, and the one after MAX_EXTRACTION_ATTEMPTS records the file as failed
 * instead of trying again (a file that crashes or hangs its worker each time), so the item never stays "processing".
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { extractStoredFile } from '#core/files/extraction';
import type { FileReader } from '#core/files/object-store';
import { claimArrivedFile, MAX_EXTRACTION_ATTEMPTS, recordExtractionError, storeExtraction, type FileKind } from '#core/files/stored-files';
import { logger } from '#core/logger';
import { FILE_PREFIXES } from '#manifest/runtime-names';
import { ifUsed } from '#core/if-used';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const FILE_KEY = new RegExp(`^${FILE_PREFIXES.evidence}${UUID}/inv/${UUID}/(attachments|background)/(${UUID})/`, 'i');

/** Pure: the attachment or background document a storage key names (uploads.ts builds the keys), or undefined. */
export const fileOfKey = (key: string): { kind: FileKind; id: string } | undefined => {
  const match = FILE_KEY.exec(key);
  if (!match) return undefined;
  return { kind: match[1] === 'attachments' ? 'attachment' : 'background_document', id: match[2]!.toLowerCase() };
};

/** The part of S3's EventBridge event the service reads. */
const objectCreatedSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    'detail-type': z.literal('Object Created'),
    source: z.literal('aws.s3'),
    detail: z.object({ bucket: z.object({ name: z.string() }), object: z.object({ key: z.string(), size: z.number().int().optional() }) }),
  }),
);

/** Pure: the object an SQS message body's event names, or undefined for anything else. */
export const objectCreatedIn = (body: string): { bucket: string; key: string; size: number | undefined } | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const event = objectCreatedSchema.safeParse(parsed);
  if (!event.success) return undefined;
  return { bucket: event.data.detail.bucket.name, key: event.data.detail.object.key, size: event.data.detail.object.size };
};

export type ArrivalOutcome = 'extracted' | 'refused' | 'given_up' | 'nothing_to_do';

export interface ArrivalDeps {
  db: Kysely<Database>;
  files: FileReader;
  wake: (investigationId: string) => Promise<unknown>;
}

export const handleArrival = async (deps: ArrivalDeps, key: string): Promise<ArrivalOutcome> => {
  const named = fileOfKey(key);
  if (!named) {
    logger.warn('an object arrived under a key the service does not issue', { key });
    return 'nothing_to_do';
  }
  const file = await claimArrivedFile(deps.db, named.kind, named.id);
  if (!file) return 'nothing_to_do';
  if (file.attempts > MAX_EXTRACTION_ATTEMPTS) {
    await recordExtractionError(
      deps.db,
      file,
      `The file could not be read: extraction failed ${MAX_EXTRACTION_ATTEMPTS} times (it may be damaged, or too complex to read).`,
    );
    logger.error('file extraction given up', { key, attempts: file.attempts - 1 });
    return 'given_up';
  }
  const outcome = await extractStoredFile(deps.files, file);
  if (!outcome.ok) {
    await recordExtractionError(deps.db, file, outcome.message);
    logger.info('file refused', { key, code: outcome.code });
    return 'refused';
  }
  await storeExtraction(deps.db, file, outcome);
  await deps.wake(file.investigation_id);
  return 'extracted';
};
