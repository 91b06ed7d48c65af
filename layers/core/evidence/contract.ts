/** The contracts of the investigation routes: the organization's investigations and their evidence (../contract.ts). */
import * as z from 'zod';
import { defineRoute, uuid } from '#core/contract';
import { EXTRACTION_STATUSES } from '#core/domain/vocabulary';
import { readinessSchema } from '#core/ingestion/contract';
import { LIMITS, optionalText, text } from '#core/ingestion/fields';
import { nextCursorSchema, pageQueryShape } from '#core/pagination';
import { INVESTIGATION_LIST } from '#core/repositories/investigations';
import { ifUsed } from '#core/if-used';

export const investigationSummarySchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    investigation_id: uuid,
    title: z.string(),
    description: z.string(),
    evidence_count: z.number().int(),
    background_document_count: z.number().int(),
    created_at: z.iso.datetime(),
  }),
);

export const questionSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({ question_id: uuid, text: z.string(), linked_evidence_count: z.number().int() }),
);

export const topicSchema = /* @__PURE__ */ ifUsed(() => z.object({ topic_id: uuid, title: z.string(), description: z.string() }));

export const investigationsListRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations',
    query: z.strictObject(pageQueryShape(INVESTIGATION_LIST)),
    response: z.object({ investigations: z.array(investigationSummarySchema).describe('newest first'), next_cursor: nextCursorSchema }),
  }),
);

export const investigationGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations/{investigation_id}',
    errors: { 404: "Not the caller's organization, or no such investigation" },
    params: z.object({ investigation_id: uuid }),
    response: investigationSummarySchema.extend({ questions: z.array(questionSchema), topics: z.array(topicSchema) }),
  }),
);

const investigationFields = {
  title: text(LIMITS.title),
  description: optionalText(LIMITS.description),
};

export const investigationCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations',
    status: 201,
    location: 'the investigation (GET /api/investigations/{investigation_id})',
    body: z.strictObject(investigationFields),
    response: investigationSummarySchema,
  }),
);

export const investigationUpdateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'PATCH /api/investigations/{investigation_id}',
    errors: { 404: "Not the caller's organization, or no such investigation" },
    params: z.object({ investigation_id: uuid }),
    body: z
      .strictObject({ title: investigationFields.title.optional(), description: investigationFields.description })
      .refine((body) => Object.keys(body).length > 0, 'must change at least one field'),
    response: investigationSummarySchema,
  }),
);

export const questionCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/questions',
    status: 201,
    location: 'the investigation, which lists its questions',
    errors: {
      404: "Not the caller's organization, or no such investigation",
      409: 'The investigation already holds as many questions as it may',
    },
    params: z.object({ investigation_id: uuid }),
    body: z.strictObject({ text: text(LIMITS.questionText) }),
    response: questionSchema.extend({ investigation_id: uuid }),
  }),
);

export const topicCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/topics',
    status: 201,
    location: 'the investigation, which lists its topics',
    errors: {
      404: "Not the caller's organization, or no such investigation",
      409: 'The investigation already has a topic of this title, or as many topics as it may',
    },
    params: z.object({ investigation_id: uuid }),
    body: z.strictObject({ title: text(LIMITS.title), description: optionalText(LIMITS.description) }),
    response: topicSchema.extend({ investigation_id: uuid }),
  }),
);

export const EVIDENCE_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

const viewPath = /* @__PURE__ */ ifUsed(() =>
  z.string().describe('GET this path to open the file in the storage viewer (/api/storage/view)'),
);

const attachment = /* @__PURE__ */ ifUsed(() =>
  z.object({
    attachment_id: uuid.describe("the storage viewer's attachment_id"),
    file_name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    view_path: viewPath,
  }),
);

const evidenceEntry = /* @__PURE__ */ ifUsed(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('evidence_item'),
      evidence_item_id: uuid,
      title: z.string(),
      collected_at: z.iso.datetime().nullable(),
      attachments: z.array(attachment),
      readiness: readinessSchema,
    }),
    z.object({
      kind: z.literal('background_document'),
      background_document_id: uuid.describe("the storage viewer's background_document_id"),
      title: z.string(),
      file_name: z.string(),
      content_type: z.string(),
      size_bytes: z.number().int(),
      included: z.boolean().describe('whether the AI is given this document (retrieval skips an excluded one)'),
      extraction_status: z.enum(EXTRACTION_STATUSES),
      readiness: readinessSchema,
      view_path: viewPath,
    }),
  ]),
);

export const investigationEvidenceRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations/{investigation_id}/evidence',
    errors: { 404: "No such investigation in the caller's organization" },
    params: z.object({ investigation_id: uuid }),
    query: z.object(pageQueryShape(EVIDENCE_LIST)),
    response: z
      .object({
        investigation_id: uuid,
        items: z.array(evidenceEntry),
        next_cursor: nextCursorSchema,
      })
      .describe(
        'One list, one cursor: the evidence items (each with its attachments) by title, then the background documents by title. ' +
          'Every file carries the id and path GET /api/storage/view opens it with; every entry its readiness (GET …/evidence/{evidence_id} ' +
          'gives the states of its files).',
      ),
  }),
);
