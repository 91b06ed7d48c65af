/** GET /api/investigations/{investigation_id}/imports/{import_id} — progress and per-line errors. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { importGetRoute } from '#core/ingestion/contract';
import { getImport } from '#core/ingestion/imports';

export const handler = route(importGetRoute, async ({ caller, params: { investigation_id, import_id } }) => ({
  body: await getImport(await database(), requireOrg(caller).organizationId, investigation_id, import_id),
}));
