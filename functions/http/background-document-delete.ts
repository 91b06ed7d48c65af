/** DELETE …/background-documents/{background_document_id} — the document, its file, chunks and embeddings. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { deleteBackgroundDocument } from '#core/ingestion/background-documents';
import { backgroundDocumentDeleteRoute } from '#core/ingestion/contract';
import { s3Remover } from '#core/storage';

export const handler = route(backgroundDocumentDeleteRoute, async ({ caller, params: { investigation_id, background_document_id } }) => ({
  body: await deleteBackgroundDocument(
    { db: await database(), files: s3Remover() },
    requireOrg(caller).organizationId,
    investigation_id,
    background_document_id,
  ),
}));
