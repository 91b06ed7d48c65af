/**
 * GET /api/analysis/{analysis_id}/export?format=json|pdf — the analysis as a record: JSON (the contract's schema) or
 * the same record as a PDF download. The PDF library is bundled into this function only.
 */
import { analysisExportRoute } from '#core/analysis/contract';
import { analysisRecord, exportFileName } from '#core/analysis/export';
import { renderAnalysisPdf } from '#core/analysis/export-pdf';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';
import { userIdBySubject } from '#core/repositories/users';

export const handler = route(analysisExportRoute, async ({ caller, params: { analysis_id }, query: { format } }) => {
  const org = requireOrg(caller);
  const db = await database();
  const record = await analysisRecord(db, org.organizationId, analysis_id, await userIdBySubject(db, org.subject));
  if (!record) throw notFound('The analysis');
  if (format === 'pdf') {
    return {
      document: { mediaType: 'application/pdf', fileName: exportFileName(analysis_id, 'pdf'), bytes: await renderAnalysisPdf(record) },
    };
  }
  return { body: record, headers: { 'content-disposition': `attachment; filename="${exportFileName(analysis_id, 'json')}"` } };
});
