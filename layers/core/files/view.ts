/**
 * The file viewer: a short-lived presigned GET URL for an attachment or background document of the
 * caller's organization. The URL makes S3 answer with the file's content type and a
 * Content-Disposition carrying its name (inline for types a browser shows safely, download otherwise).
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { notFound } from '#core/errors';
import { contentDisposition, servedContentType, VIEW_URL_EXPIRY_SECONDS } from './formats';
import type { FileLinker } from './object-store';
import type { FileViewLink } from './wire';
import { findStoredFile, type FileKind } from './stored-files';

export interface ViewDeps {
  db: Kysely<Database>;
  links: FileLinker;
  now?: () => Date;
}

const WHAT: Record<FileKind, string> = { attachment: 'The attachment', background_document: 'The background document' };

export const fileViewLink = async (
  { db, links, now = () => new Date() }: ViewDeps,
  organizationId: string,
  kind: FileKind,
  id: string,
): Promise<FileViewLink> => {
  const file = await findStoredFile(db, organizationId, kind, id);
  if (!file) throw notFound(WHAT[kind]);
  const contentType = servedContentType(file.content_type);
  const issuedAt = now();
  const url = await links.viewUrl(file.storage_key, {
    contentType,
    contentDisposition: contentDisposition(file.file_name, contentType),
    expiresInSeconds: VIEW_URL_EXPIRY_SECONDS,
  });
  return {
    kind,
    id: file.id,
    investigation_id: file.investigation_id,
    file_name: file.file_name,
    content_type: contentType,
    size_bytes: file.size_bytes,
    url,
    expires_in_seconds: VIEW_URL_EXPIRY_SECONDS,
    expires_at: new Date(issuedAt.getTime() + VIEW_URL_EXPIRY_SECONDS * 1000).toISOString(),
  };
};
