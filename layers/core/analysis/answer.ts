/**
 * Reading the model's answer: JSON in the shape the analysis prompts ask for, validated with zod, and
 * every citation translated from the marker issued for that call back to its chunk id. Pure.
 */
import * as z from 'zod';
import { CONFIDENCE_LEVELS } from '#core/domain/confidence';
import type { ValidationStatus } from '#core/domain/vocabulary';
import { citedChunk, type EvidenceMarkers } from './evidence-markers';
import { ifUsed } from '#core/if-used';

export const analysisAnswerSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    summary: z.string().min(1),
    findings: z.array(z.object({ statement: z.string().min(1), citations: z.array(z.string()) })),
    confidence: z.enum(CONFIDENCE_LEVELS).optional(),
    evidence_gaps: z.array(z.string()).default([]),
    /** set by the twin's Bedrock stand-in, so its output is never passed off as AI output */
    standin: z.boolean().optional(),
  }),
);

export type AnalysisAnswer = z.infer<typeof analysisAnswerSchema>;

export class UnreadableAnswerError extends Error {
  override name = 'UnreadableAnswerError';
  constructor(readonly detail: string) {
    super('The AI answered in a form the service could not read. Nothing was lost; please run the analysis again.');
  }
}

/** Models sometimes wrap JSON in a fenced block or add a sentence around it. */
export const jsonPart = (text: string): string => {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = fenced ? fenced[1]! : text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start >= 0 && end > start ? body.slice(start, end + 1) : body;
};

/** The answer with its citations as chunk ids: the chunks of the issued markers it cites, the rest dropped. */
export const readAnswer = (text: string, markers: EvidenceMarkers): { answer: AnalysisAnswer; validation_status: ValidationStatus } => {
  let json: unknown;
  try {
    json = JSON.parse(jsonPart(text));
  } catch (error) {
    throw new UnreadableAnswerError(`not JSON: ${(error as Error).message}`);
  }
  const parsed = analysisAnswerSchema.safeParse(json);
  if (!parsed.success) throw new UnreadableAnswerError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  let removed = false;
  const findings = parsed.data.findings.map((f) => {
    const cited = f.citations.map((citation) => citedChunk(markers, citation));
    if (cited.includes(undefined)) removed = true;
    const citations = [...new Set(cited.filter((id) => id !== undefined))];
    return { ...f, citations };
  });
  const validation_status: ValidationStatus = findings.some((f) => f.citations.length === 0)
    ? 'uncited_findings'
    : removed
      ? 'citations_removed'
      : 'valid';
  return { answer: { ...parsed.data, findings }, validation_status };
};
