/** PATCH …/background-documents/{background_document_id} — its title, or whether the AI is given it. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { updateBackgroundDocument } from '#core/ingestion/background-documents';
import { backgroundDocumentUpdateRoute } from '#core/ingestion/contract';

export const handler = route(
  backgroundDocumentUpdateRoute,
  async ({ caller, params: { investigation_id, background_document_id }, body }) => ({
    body: await updateBackgroundDocument(
      await database(),
      requireOrg(caller).organizationId,
      investigation_id,
      background_document_id,
      body,
    ),
  }),
);
