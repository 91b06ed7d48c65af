/**
 * joinChunks, chunkText's inverse (the surrounding passage of a cited chunk): consecutive chunks of the
 * demo's evidence and of generated texts join back into the normalised text they were cut from, and each
 * chunk's span in the result is the chunk.
 */
import * as fc from 'fast-check';
import { chunkText, joinChunks, normalizeText } from '#core/embeddings/chunking';
import { DEMO_SEED } from '#core/seed/demo';
import { seedFileSchema } from '#core/seed/format';

const demoTexts = (): string[] =>
  seedFileSchema
    .parse(DEMO_SEED)
    .organizations.flatMap((o) =>
      o.investigations.flatMap((i) => [
        ...i.evidence.flatMap((e) => [e.content, ...(e.attachments ?? []).map((a) => a.text)]),
        ...(i.background_documents ?? []).map((b) => b.text),
      ]),
    )
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '');

const checkRoundTrip = (raw: string, options?: { targetChars: number; overlapChars: number }) => {
  const chunks = chunkText(raw, options);
  const { text, spans } = joinChunks(
    chunks.map((c) => c.text),
    options?.overlapChars,
  );
  expect(text).toBe(normalizeText(raw).text);
  chunks.forEach((chunk, i) => expect(text.slice(spans[i]!.start, spans[i]!.end)).toBe(chunk.text));
  // any consecutive run of them (a passage around one chunk) is a slice of the text too
  for (let i = 0; i + 2 < chunks.length; i++) {
    const run = joinChunks(
      chunks.slice(i, i + 3).map((c) => c.text),
      options?.overlapChars,
    );
    expect(run.text).toBe(text.slice(chunks[i]!.start, chunks[i + 2]!.end));
  }
};

test('the demo evidence: every source joins back to its text', () => {
  const texts = demoTexts();
  expect(texts.length).toBeGreaterThan(40);
  for (const raw of texts) checkRoundTrip(raw);
  expect(texts.some((raw) => chunkText(raw).length >= 3)).toBe(true);
});

test('generated texts, small chunks: joined back exactly', () => {
  const word = fc.constantFrom('invoice', 'vendor', 'paid', 'Mr.', 'Hale', 'signed', 'the', 'log', '4,500', 'March', 'racking', 'über');
  const sentence = fc.array(word, { minLength: 1, maxLength: 14 }).map((words) => `${words.join(' ')}.`);
  const text = fc
    .array(
      fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(' ')),
      { minLength: 1, maxLength: 6 },
    )
    .map((p) => p.join('\n\n'));
  fc.assert(
    fc.property(text, (raw) => checkRoundTrip(raw, { targetChars: 120, overlapChars: 30 })),
    { seed: 15, numRuns: 200 },
  );
});

test('one chunk is its own passage; chunks with no overlap were one space apart', () => {
  expect(joinChunks(['Only this.'])).toEqual({ text: 'Only this.', spans: [{ start: 0, end: 10 }] });
  expect(joinChunks(['First part.', 'Second part.'])).toEqual({
    text: 'First part. Second part.',
    spans: [
      { start: 0, end: 11 },
      { start: 12, end: 24 },
    ],
  });
  expect(joinChunks([])).toEqual({ text: '', spans: [] });
});
