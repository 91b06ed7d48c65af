/** The contracts of the feedback routes: engagement gates, judgments and their metrics (../contract.ts). */
import * as z from 'zod';
import { defineRoute, parseWith, uuid } from '#core/contract';
import { ANALYSIS_TYPES } from '#core/domain/analysis-types';
import { FEEDBACK_ACTIONS, FEEDBACK_STATUSES, REGENERATION_REASON_KEYS, REGENERATION_REASONS } from '#core/domain/feedback';
import { nextCursorSchema, pageQueryShape } from '#core/pagination';
import { ENGAGEMENT_STEPS } from './engagement';
import { FEEDBACK_LIST } from './history';
import { ifUsed } from '#core/if-used';

export const FEEDBACK_LIMITS = { reason: 2000, direction: 2000, content: 50_000, requestId: 128 } as const;

const text = (max: number, what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`);

/** A client-chosen id that makes a retried submit record once (also accepted as the Idempotency-Key header). */
export const requestIdSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(FEEDBACK_LIMITS.requestId)
    .regex(/^[A-Za-z0-9._:-]+$/, 'request_id may hold letters, digits and . _ : - only'),
);

const idempotent = { request_id: requestIdSchema.optional() };
const reasonList = /* @__PURE__ */ ifUsed(() => REGENERATION_REASON_KEYS.join(', '));

/** First the action alone, so an unknown action gets a message naming the allowed ones. */
export const feedbackActionSchema = /* @__PURE__ */ ifUsed(() =>
  z.looseObject({
    action: z.enum(FEEDBACK_ACTIONS, { error: `action must be one of ${FEEDBACK_ACTIONS.join(', ')}` }),
  }),
);

export const feedbackBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.discriminatedUnion('action', [
    z.strictObject({ action: z.literal('agree'), ...idempotent }),
    z.strictObject({ action: z.literal('disagree'), reason: text(FEEDBACK_LIMITS.reason, 'reason (why you disagree)'), ...idempotent }),
    z.strictObject({ action: z.literal('unsure'), direction: text(FEEDBACK_LIMITS.direction, 'direction').optional(), ...idempotent }),
    z
      .strictObject({
        action: z.literal('regenerate'),
        reason: z.enum(REGENERATION_REASON_KEYS, { error: `reason must be one of ${reasonList}` }),
        direction: text(FEEDBACK_LIMITS.direction, 'direction').optional(),
        ...idempotent,
      })
      .refine((body) => body.reason !== 'other' || body.direction !== undefined, {
        path: ['direction'],
        message: "direction is required when the reason is 'other'",
      }),
    z.strictObject({ action: z.literal('edit'), content: text(FEEDBACK_LIMITS.content, 'content'), ...idempotent }),
    z.strictObject({ action: z.literal('view'), ...idempotent }),
  ]),
);

const badge = /* @__PURE__ */ ifUsed(() => z.object({ key: z.string(), label: z.string(), color: z.string() }));
const feedbackStatus = /* @__PURE__ */ ifUsed(() => z.enum(FEEDBACK_STATUSES));
const timestamp = /* @__PURE__ */ ifUsed(() => z.iso.datetime());

export const feedbackRecordSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    feedback_id: uuid,
    action: z.enum(FEEDBACK_ACTIONS),
    status: feedbackStatus,
    reason: z.string().nullable(),
    direction: z.string().nullable(),
    actor: z.object({ user_id: uuid, display_name: z.string().nullable() }).nullable(),
    regenerated_analysis_id: uuid.nullable(),
    revision_id: uuid.nullable(),
    content: z.string().nullable(),
    created_at: timestamp,
  }),
);

const rates = /* @__PURE__ */ ifUsed(() =>
  z.object({
    acceptance: z.number().nullable(),
    rejection: z.number().nullable(),
    needs_revision: z.number().nullable(),
    regeneration: z.number().nullable(),
    edit: z.number().nullable(),
  }),
);
const counts = {
  analyses: z.number().int(),
  judgments: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  needs_revision: z.number().int(),
  regenerated_analyses: z.number().int(),
  edited_analyses: z.number().int(),
};

export const analysisEngagementRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/analysis/{analysis_id}/engagement',
    errors: { 404: "No such analysis in the caller's organization", 409: 'Gate B before Gate A, or no output yet' },
    params: z.object({ analysis_id: uuid }),
    body: z.strictObject({ step: z.enum(ENGAGEMENT_STEPS, { error: `step must be one of ${ENGAGEMENT_STEPS.join(', ')}` }) }),
    response: z.object({
      analysis_id: uuid,
      detail_reviewed_at: timestamp.nullable(),
      citation_checked_at: timestamp.nullable(),
      judgment_enabled: z.boolean(),
    }),
  }),
);

export const analysisFeedbackCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    // the action alone first, so an unknown one gets a message naming the allowed ones
    refuseBody: (body: unknown) => parseWith(feedbackActionSchema, body),
    route: 'POST /api/analysis/{analysis_id}/feedback',
    status: 201,
    location: 'the feedback record',
    errors: {
      200: 'A retry with a request id already used for this action: nothing new was recorded; the first answer again',
      404: "No such analysis in the caller's organization",
      409: 'Judgment before both gates, no output yet, or a request id reused for another action',
      429: "Regeneration over the organization's generation cap",
      503: 'The regeneration could not be queued; nothing was recorded',
    },
    params: z.object({ analysis_id: uuid }),
    headers: z.object({
      'idempotency-key': requestIdSchema.optional().describe("the same as the body's request_id: a retried submit with it records once"),
    }),
    body: feedbackBodySchema,
    response: z.object({
      feedback: feedbackRecordSchema,
      analysis: z.object({ analysis_id: uuid, feedback_status: feedbackStatus.nullable(), feedback_badge: badge.nullable() }),
      regenerated_analysis: z.object({ analysis_id: uuid, generation_status: z.string(), poll: z.string() }).optional(),
      prompt: z.string().optional(),
      regeneration_draft: z.object({ reason: z.enum(REGENERATION_REASON_KEYS), direction: z.string() }).optional(),
      replayed: z.boolean(),
    }),
  }),
);

export const analysisFeedbackListRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/feedback',
    errors: { 404: "No such analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid }),
    query: z.strictObject(pageQueryShape(FEEDBACK_LIST)),
    response: z.object({
      analysis_id: uuid,
      feedback: z.array(feedbackRecordSchema).describe('oldest first'),
      next_cursor: nextCursorSchema,
    }),
  }),
);

export const analysisFeedbackGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/feedback/{feedback_id}',
    errors: { 404: "No such feedback record on that analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid, feedback_id: uuid }),
    response: feedbackRecordSchema,
  }),
);

export const feedbackMetricsRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/feedback-metrics',
    errors: { 404: "No such investigation in the caller's organization" },
    query: z.object({ investigation_id: uuid }),
    response: z.object({
      investigation_id: uuid,
      as_of: timestamp,
      totals: z.object({ ...counts, regenerations: z.number().int(), edits: z.number().int(), views: z.number().int() }),
      rates,
      by_type: z.array(z.object({ analysis_type: z.enum(ANALYSIS_TYPES), ...counts, rates })),
      top_regeneration_reasons: z.array(
        z.object({
          reason: z.enum(REGENERATION_REASON_KEYS),
          label: z.enum(Object.values(REGENERATION_REASONS)),
          count: z.number().int(),
          share: z.number(),
        }),
      ),
      weekly_trend: z
        .array(
          z.object({
            week_start: timestamp,
            judgments: z.number().int(),
            accepted: z.number().int(),
            rejected: z.number().int(),
            needs_revision: z.number().int(),
            acceptance_rate: z.number().nullable(),
            regenerations: z.number().int(),
            edits: z.number().int(),
          }),
        )
        .length(8),
    }),
  }),
);
