/**
 * Request and response schemas per function (zod). Handlers validate with them and the OpenAPI
 * document is generated from them, so the contract is written once.
 */
import * as z from 'zod';
import { sweepRunSchema } from '../embeddings/report';
import { uuid } from './params';

export interface RouteContract {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response?: z.ZodType;
}

const check = z.object({ status: z.enum(['ok', 'failed']), latency_ms: z.number().int(), error: z.string().optional() });

const investigationSummary = z.object({
  investigation_id: uuid,
  title: z.string(),
  description: z.string(),
  evidence_count: z.number().int(),
  background_document_count: z.number().int(),
  created_at: z.iso.datetime(),
});

export const contracts = {
  health: {
    response: z.object({
      status: z.enum(['ok', 'unavailable']),
      checks: z.object({ database: check, generation_queue: check, quality_queue: check, storage: check }),
      time: z.iso.datetime(),
    }),
  },
  'investigations-list': { response: z.object({ investigations: z.array(investigationSummary) }) },
  'investigation-get': {
    params: z.object({ investigation_id: uuid }),
    response: investigationSummary.extend({
      questions: z.array(z.object({ question_id: uuid, text: z.string(), linked_evidence_count: z.number().int() })),
      topics: z.array(z.object({ topic_id: uuid, title: z.string(), description: z.string() })),
    }),
  },
  'embedding-sweeper': { response: sweepRunSchema },
} satisfies Record<string, RouteContract>;

export const contractOf = (functionId: string): RouteContract => (contracts as Record<string, RouteContract>)[functionId] ?? {};

export const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
