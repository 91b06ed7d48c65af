/**
 * POST /api/background/extract-text { background_document_id } — extracts the text of a background
 * document of the caller's organization (PDF, DOCX, plain text), stores it, chunks it and wakes the
 * embedding worker; answers what it did. 415 for a format it cannot read, 422 for a damaged file.
 */
import { database } from '#core/db/connection';
import { backgroundExtractTextRoute } from '#core/files/contract';
import { extractBackgroundDocument } from '#core/files/extraction';
import { s3FileReader } from '#core/files/object-store';
import { requireOrg, route } from '#core/http/route';
import { wakeEmbedding } from '#core/embeddings/wake';

export const handler = route(backgroundExtractTextRoute, async ({ caller, body: { background_document_id } }) => {
  const org = requireOrg(caller);
  return {
    body: await extractBackgroundDocument(
      { db: await database(), files: s3FileReader(), wake: (id) => wakeEmbedding(id) },
      org.organizationId,
      background_document_id,
    ),
  };
});
