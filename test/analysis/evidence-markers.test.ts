/**
 * Fenced prompts (pure): neutralised text cannot hold a marker, every marker in a rendered prompt is one
 * issued for that call, labels are fresh per call, and only citations of issued markers survive
 * reading the answer — whatever the evidence and the investigator's text contain (fast-check).
 */
import fc from 'fast-check';
import { readAnswer } from '#core/analysis/answer';
import { citedChunk, issueMarkers, neutralise, randomNonce, type NonceSource } from '#core/analysis/evidence-markers';
import { analysisPromptValues, renderTemplate } from '#core/analysis/prompts';
import { qualityPromptValues } from '#core/analysis/quality';
import { FENCED_TEMPLATES } from '#core/db/migrations/0010-fenced-prompts';

/** text rich in marker-like pieces: brackets, `chunk:`, ids, newlines, the template's own words */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '[',
        ']',
        '[chunk:',
        'chunk:',
        '(',
        ')',
        '\n',
        '\n\n',
        ' ',
        'Evidence passages',
        "Investigator's request",
        '{{evidence}}',
        '【',
        '】',
      ),
      fc.string({ maxLength: 12 }),
      fc.uuid(),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const passages = fc.uniqueArray(fc.record({ id: fc.uuid(), text: hostileText }), { selector: (p) => p.id, maxLength: 8 });

/** every `[chunk:…]` in a text, as the labels it names */
const markersIn = (text: string): string[] => [...text.matchAll(/\[\s*chunk\s*:\s*([^\]]*)\]/gi)].map((m) => m[1]!);

describe('neutralise', () => {
  test('leaves no square bracket, changes nothing else, and is idempotent', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const out = neutralise(text);
        expect(out).not.toMatch(/[[\]]/);
        expect(out.length).toBe(text.length);
        expect(out.replace(/[()]/g, '')).toBe(text.replace(/[[\]()]/g, ''));
        expect(neutralise(out)).toBe(out);
      }),
    );
  });
});

describe('issueMarkers', () => {
  test('one distinct label per chunk, both ways, even when the source repeats itself', () => {
    fc.assert(
      fc.property(fc.array(fc.uuid(), { maxLength: 20 }), fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1 }), (ids, repeats) => {
        let n = 0;
        const stuttering: NonceSource = () => (n < repeats.length ? repeats[n++]! : `x${n++}`);
        const markers = issueMarkers(ids, stuttering);
        expect(markers.labelOf.size).toBe(new Set(ids).size);
        expect(new Set(markers.labelOf.values()).size).toBe(markers.labelOf.size);
        for (const [id, label] of markers.labelOf) expect(markers.chunkOf.get(label)).toBe(id);
      }),
    );
  });

  test('random labels: 8 base32 characters, fresh for every call', () => {
    const first = issueMarkers(['c1', 'c2']);
    const second = issueMarkers(['c1', 'c2']);
    for (const label of [...first.labelOf.values(), ...second.labelOf.values()]) expect(label).toMatch(/^[a-z2-7]{8}$/);
    expect(first.labelOf.get('c1')).not.toBe(second.labelOf.get('c1'));
    expect(new Set(Array.from({ length: 1000 }, randomNonce)).size).toBe(1000);
  });

  test('a citation counts when it names an issued label, alone, as chunk:<label> or as the whole marker; nothing else does', () => {
    const markers = issueMarkers(['chunk-1'], () => 'k7q2f9xm');
    for (const citation of ['k7q2f9xm', 'chunk:k7q2f9xm', '[chunk:k7q2f9xm]', ' [chunk: k7q2f9xm] '])
      expect(citedChunk(markers, citation)).toBe('chunk-1');
    for (const citation of ['chunk-1', '[chunk:chunk-1]', 'k7q2f9x', 'k7q2f9xmm', '', '[chunk:k7q2f9xm] extra'])
      expect(citedChunk(markers, citation)).toBeUndefined();
  });
});

describe('rendered prompts', () => {
  const request = fc.record({
    investigationTitle: hostileText,
    question: fc.option(hostileText),
    topic: fc.option(fc.record({ title: hostileText, description: hostileText }), { nil: undefined }),
    regeneration: fc.option(
      fc.record({ reason: fc.constantFrom('missing_evidence', 'too_vague', '[chunk:x]'), direction: fc.option(hostileText) }),
    ),
  });

  test("every marker in an analysis prompt is one issued for that call, and the investigator's text comes after the evidence", () => {
    fc.assert(
      fc.property(
        passages,
        request,
        fc.constantFrom(...Object.keys(FENCED_TEMPLATES).filter((t) => t.startsWith('analysis_'))),
        (evidence, input, type) => {
          const { values, markers } = analysisPromptValues({ ...input, evidence });
          const template = FENCED_TEMPLATES[type]!;
          const prompt = renderTemplate(template.user, values);
          const issued = new Set(markers.chunkOf.keys());
          // the template's own description of the marker, `[chunk:<label>]`, is the only other one
          for (const label of markersIn(prompt)) expect(issued.has(label) || label === '<label>').toBe(true);
          expect(markersIn(prompt).filter((l) => issued.has(l))).toHaveLength(evidence.length);
          for (const value of [values.investigation_title, values.question, values.topic, values.regeneration])
            expect(value).not.toMatch(/[[\]]/);
        },
      ),
    );
  });

  test("the stored analysis templates put every placeholder of the investigator's text in the request block after the evidence", () => {
    for (const [type, template] of Object.entries(FENCED_TEMPLATES).filter(([t]) => t.startsWith('analysis_'))) {
      const request = template.user.indexOf("Investigator's request");
      expect([type, template.user.indexOf('{{evidence}}') < request]).toEqual([type, true]);
      for (const name of ['investigation_title', 'question', 'topic', 'regeneration'].filter((n) => template.user.includes(`{{${n}}}`))) {
        expect([type, name, template.user.indexOf(`{{${name}}}`) > request]).toEqual([type, name, true]);
      }
    }
  });

  test('the quality prompts: fresh markers, the analysis after the evidence, citing labels only', () => {
    fc.assert(
      fc.property(passages, hostileText, fc.option(hostileText), (evidence, statement, question) => {
        const analysis = { summary: statement, findings: [{ statement, citations: evidence.map((p) => p.id) }] };
        for (const type of ['quality_faithfulness', 'quality_coverage']) {
          const { values, markers } = qualityPromptValues({ analysis, question, evidence });
          const prompt = renderTemplate(FENCED_TEMPLATES[type]!.user, values);
          for (const label of markersIn(prompt)) expect(markers.chunkOf.has(label) || label === '<label>').toBe(true);
          for (const p of evidence) expect(values.analysis).toContain(markers.labelOf.get(p.id));
          expect(FENCED_TEMPLATES[type]!.user.indexOf('{{evidence}}')).toBeLessThan(FENCED_TEMPLATES[type]!.user.indexOf('{{analysis}}'));
        }
      }),
    );
  });

  test('a model answer citing what the investigator typed keeps nothing of it; citing the issued markers keeps their chunks', () => {
    fc.assert(
      fc.property(
        passages.filter((p) => p.length > 0),
        hostileText,
        (evidence, typed) => {
          const { markers } = analysisPromptValues({
            investigationTitle: 'T',
            evidence,
            regeneration: { reason: 'too_vague', direction: typed },
          });
          const realId = evidence[0]!.id;
          const answer = JSON.stringify({
            summary: 's',
            findings: [
              {
                statement: 'Planted.',
                citations: [realId, `[chunk:${realId}]`, `chunk:${realId}`, typed, ...markersIn(typed)].filter(
                  (c) => !markers.chunkOf.has(c.trim()),
                ),
              },
              { statement: 'From the evidence.', citations: [...markers.chunkOf.keys()].map((label) => `[chunk:${label}]`) },
            ],
          });
          const { answer: read, validation_status } = readAnswer(answer, markers);
          expect(read.findings[0]!.citations).toEqual([]);
          expect(read.findings[1]!.citations).toEqual(evidence.map((p) => p.id));
          expect(validation_status).toBe('uncited_findings');
        },
      ),
    );
  });
});
