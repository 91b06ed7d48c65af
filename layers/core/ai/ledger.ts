/**
 * The AI call ledger: one row per model request attempt, whatever its outcome. It is the source of
 * per-user AI usage counts and per-analysis token usage, and (outcomes 'throttled' and 'timed_out':
 * an attempt aborted at its attempt timeout, ai/timeouts.ts) the shared record the throttle shedder reads.
 */
import type { Kysely } from 'kysely';
import type { AiOutcome, AiPurpose, Database } from '#core/db/schema';

export interface LedgerEntry {
  purpose: AiPurpose;
  region: string;
  modelId: string;
  outcome: AiOutcome;
  errorName?: string | undefined;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  latencyMs?: number;
  userId?: string | undefined;
  analysisId?: string | undefined;
  at: Date;
}

export const recordCall = async (db: Kysely<Database>, entry: LedgerEntry): Promise<void> => {
  await db
    .insertInto('ai_calls')
    .values({
      purpose: entry.purpose,
      region: entry.region,
      model_id: entry.modelId,
      outcome: entry.outcome,
      error_name: entry.errorName ?? null,
      input_tokens: entry.inputTokens ?? 0,
      output_tokens: entry.outputTokens ?? 0,
      cache_read_tokens: entry.cacheReadTokens ?? 0,
      cache_write_tokens: entry.cacheWriteTokens ?? 0,
      latency_ms: Math.round(entry.latencyMs ?? 0),
      user_id: entry.userId ?? null,
      analysis_id: entry.analysisId ?? null,
      created_at: entry.at,
    })
    .execute();
};
