/** The contracts of the files routes: opening a file, extracting a background document's text (../contract.ts). */
import * as z from 'zod';
import { defineRoute, uuid } from '#core/contract';
import { extractionReportSchema, fileViewLinkSchema } from './wire';
import { ifUsed } from '#core/if-used';

const viewQuerySchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({
      attachment_id: uuid.optional(),
      background_document_id: uuid.optional(),
      redirect: z
        .enum(['true', 'false'], { error: 'must be true or false' })
        .default('true')
        .describe('true (default): 302 to the presigned URL; false: 200 with the link as JSON (for clients that cannot read a redirect)'),
    })
    .superRefine((query, ctx) => {
      if ((query.attachment_id === undefined) === (query.background_document_id === undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of attachment_id or background_document_id' });
      }
    }),
);

export const storageViewRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/storage/view',
    location: 'the presigned URL (with the 302)',
    errors: {
      302: 'Redirect to a short-lived presigned URL of the file (unless redirect=false)',
      404: "No such file in the caller's organization",
    },
    query: viewQuerySchema,
    response: fileViewLinkSchema,
  }),
);

export const backgroundExtractTextRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/background/extract-text',
    errors: {
      404: "No such background document in the caller's organization",
      415: 'Unsupported file type or charset',
      422: 'Unreadable, empty, too large or missing file',
    },
    body: z.strictObject({ background_document_id: uuid }),
    response: extractionReportSchema,
  }),
);
