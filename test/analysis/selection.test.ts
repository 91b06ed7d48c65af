/**
 * The analysis request shared by assess and create: each type's selection rules, strictness, the
 * dedicated refusal of the design-only types (in every common spelling), and field-naming errors.
 */
import * as z from 'zod';
import { ANALYSIS_TYPE_UNAVAILABLE, ANALYSIS_TYPES, analysisRequestSchema, designOnlyType } from '#core/analysis/selection';
import { analysisCreateRoute } from '#core/analysis/contract';
import { parseBodyWith } from '#core/contract';
import { DomainError } from '#core/errors';

const INVESTIGATION = '2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01';
const QUESTION = '0b7d3f52-3c1e-4a8e-9a55-6d2f1c0e9a11';
const TOPIC = '5e0c2a41-77b9-4f3d-8c1a-2b9e4d6f8a22';

/** The DomainError a body is refused with (fails the test when it is accepted). */
const refusal = (body: unknown): DomainError => {
  try {
    parseBodyWith(analysisCreateRoute, body);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
};

const detailsOf = (body: unknown) => refusal(body).details as { path: string; message: string }[];

describe('each analysis type takes exactly the selection it needs', () => {
  test('question: question_id required, topic_id refused', () => {
    expect(
      parseBodyWith(analysisCreateRoute, { investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION }),
    ).toEqual({ investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION });
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'question' })).toEqual([
      { path: 'question_id', message: 'is required for a question analysis' },
    ]);
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION, topic_id: TOPIC })).toEqual([
      { path: 'topic_id', message: 'is not used by a question analysis (it takes question_id)' },
    ]);
  });

  test('topic: topic_id required, question_id refused', () => {
    expect(parseBodyWith(analysisCreateRoute, { investigation_id: INVESTIGATION, analysis_type: 'topic', topic_id: TOPIC })).toEqual({
      investigation_id: INVESTIGATION,
      analysis_type: 'topic',
      topic_id: TOPIC,
    });
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'topic' })).toEqual([
      { path: 'topic_id', message: 'is required for a topic analysis' },
    ]);
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'topic', question_id: QUESTION })).toEqual([
      { path: 'question_id', message: 'is not used by a topic analysis (it takes topic_id)' },
      { path: 'topic_id', message: 'is required for a topic analysis' },
    ]);
  });

  test.each(['summary', 'gap', 'error_check'] as const)('%s covers the whole investigation: neither id', (type) => {
    expect(parseBodyWith(analysisCreateRoute, { investigation_id: INVESTIGATION, analysis_type: type })).toEqual({
      investigation_id: INVESTIGATION,
      analysis_type: type,
    });
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: type, question_id: QUESTION })).toEqual([
      { path: 'question_id', message: `is not used by a ${type} analysis, which covers the whole investigation` },
    ]);
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: type, topic_id: TOPIC })).toEqual([
      { path: 'topic_id', message: `is not used by a ${type} analysis, which covers the whole investigation` },
    ]);
  });

  test('null counts as not sent (an empty picker), and leaves no key behind', () => {
    const parsed = parseBodyWith(analysisCreateRoute, {
      investigation_id: INVESTIGATION,
      analysis_type: 'summary',
      question_id: null,
      topic_id: null,
    });
    expect(parsed).toStrictEqual({ investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(
      parseBodyWith(analysisCreateRoute, {
        investigation_id: INVESTIGATION,
        analysis_type: 'question',
        question_id: QUESTION,
        topic_id: null,
      }),
    ).toStrictEqual({ investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION });
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'question', question_id: null })).toEqual([
      { path: 'question_id', message: 'is required for a question analysis' },
    ]);
  });

  test('every type the database accepts is offered', () => {
    expect([...ANALYSIS_TYPES]).toEqual(['question', 'topic', 'summary', 'gap', 'error_check']);
  });
});

describe('validation errors are 400s that name the field', () => {
  test('strict: an unknown field is refused', () => {
    const error = refusal({ investigation_id: INVESTIGATION, analysis_type: 'summary', scope: 'all' });
    expect(error.kind).toBe('invalid');
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: '', message: 'Unrecognized key: "scope"' }]);
  });

  test('UUID errors name their field', () => {
    expect(detailsOf({ investigation_id: 'nope', analysis_type: 'question', question_id: 'also-nope' })).toEqual([
      { path: 'investigation_id', message: 'must be a UUID' },
      { path: 'question_id', message: 'must be a UUID' },
    ]);
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'topic', topic_id: 42 })).toEqual([
      { path: 'topic_id', message: 'must be a UUID' },
    ]);
  });

  test('a missing or unknown analysis type names the allowed ones', () => {
    expect(detailsOf({ investigation_id: INVESTIGATION })).toEqual([{ path: 'analysis_type', message: 'is required' }]);
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'poem' })).toEqual([
      { path: 'analysis_type', message: 'must be one of question, topic, summary, gap, error_check' },
    ]);
    // the wire values are exact: a display label of an available type is not one
    expect(detailsOf({ investigation_id: INVESTIGATION, analysis_type: 'Error Check' })).toEqual([
      { path: 'analysis_type', message: 'must be one of question, topic, summary, gap, error_check' },
    ]);
  });

  test('a body that is not an object', () => {
    for (const body of [undefined, null, 'summary', [INVESTIGATION]]) {
      const error = refusal(body);
      expect(error.code).toBe('validation_failed');
      expect(error.kind).toBe('invalid');
    }
  });
});

describe('design-only analysis types are refused as not available, in any spelling', () => {
  const spellings: [string, string][] = [
    ['comparative', 'Comparative Analysis'],
    ['comparative_analysis', 'Comparative Analysis'],
    ['Comparative Analysis', 'Comparative Analysis'],
    ['COMPARATIVE-ANALYSIS', 'Comparative Analysis'],
    ['timeline', 'Timeline Analysis'],
    ['timeline_analysis', 'Timeline Analysis'],
    ['Timeline Analysis', 'Timeline Analysis'],
    ['timeline-analysis', 'Timeline Analysis'],
    ['witness_credibility', 'Witness Credibility'],
    ['Witness Credibility', 'Witness Credibility'],
    ['witness-credibility', 'Witness Credibility'],
    ['WitnessCredibility', 'Witness Credibility'],
    ['risk_assessment', 'Risk Assessment'],
    ['Risk Assessment', 'Risk Assessment'],
    ['risk-assessment', 'Risk Assessment'],
    [' RISK  ASSESSMENT ', 'Risk Assessment'],
  ];

  test.each(spellings)('%j → 400 analysis_type_unavailable naming %s', (spelling, label) => {
    const error = refusal({ investigation_id: INVESTIGATION, analysis_type: spelling });
    expect(error.kind).toBe('invalid');
    expect(error.code).toBe(ANALYSIS_TYPE_UNAVAILABLE);
    expect(error.message).toBe(
      `${label} is a design-only analysis type and is not available. Available types: question, topic, summary, gap, error_check.`,
    );
    expect(error.details).toEqual([{ path: 'analysis_type', message: `${label} is design-only and not available` }]);
    expect(designOnlyType(spelling)).toBe(label);
  });

  test('the refusal comes first, whatever else is wrong with the body', () => {
    const error = refusal({ investigation_id: 'nope', analysis_type: 'timeline', question_id: 'x', extra: true });
    expect(error.code).toBe(ANALYSIS_TYPE_UNAVAILABLE);
  });

  test('available types and near misses are not taken for design-only ones', () => {
    for (const value of [...ANALYSIS_TYPES, 'comparison', 'risk', 'witness', 'time line analysis x', 42, undefined]) {
      expect(designOnlyType(value)).toBeUndefined();
    }
  });

  test('the schema on its own (as the OpenAPI contract) still says why', () => {
    const result = analysisRequestSchema.safeParse({ investigation_id: INVESTIGATION, analysis_type: 'witness_credibility' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'analysis_type',
        'Witness Credibility is a design-only analysis type and is not available. Available types: question, topic, summary, gap, error_check.',
      ],
    ]);
  });
});

test('the request renders as a JSON Schema for the OpenAPI document, listing only the available types', () => {
  const schema = z.toJSONSchema(analysisRequestSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, { enum?: string[] }>;
    required: string[];
    additionalProperties: boolean;
  };
  expect(schema.properties.analysis_type!.enum).toEqual([...ANALYSIS_TYPES]);
  expect(schema.required.sort()).toEqual(['analysis_type', 'investigation_id']);
  expect(schema.additionalProperties).toBe(false);
});
