/**
 * Wire shapes of the files routes (zod), apart from the code that fills them: the route contracts
 * (and so every function's bundle) import this module, which must not pull in the extraction libraries.
 */
import * as z from 'zod';
import { uuid } from '#core/contract';
import { ifUsed } from '#core/if-used';

export const fileViewLinkSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    kind: z.enum(['attachment', 'background_document']),
    id: uuid,
    investigation_id: uuid,
    file_name: z.string(),
    /** what S3 answers with */
    content_type: z.string(),
    size_bytes: z.number().int(),
    url: z.string().describe('presigned S3 GET URL; answers with the file, its content type and a Content-Disposition naming it'),
    expires_in_seconds: z.number().int(),
    expires_at: z.iso.datetime(),
  }),
);

export type FileViewLink = z.infer<typeof fileViewLinkSchema>;

export const extractionReportSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    background_document_id: uuid,
    investigation_id: uuid,
    file_name: z.string(),
    format: z.enum(['pdf', 'docx', 'text', 'email']),
    /** characters of the stored text */
    characters: z.number().int(),
    /** PDF only */
    pages: z.number().int().nullable(),
    chunks: z.number().int(),
    /** chunks of an earlier extraction that were replaced */
    replaced_chunks: z.number().int(),
    extraction_status: z.literal('extracted'),
    /** the sweeper embeds the new chunks on its next run */
    embedding_status: z.literal('pending'),
  }),
);

export type ExtractionReport = z.infer<typeof extractionReportSchema>;
