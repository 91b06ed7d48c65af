/**
 * The Bedrock stand-in's embedders: the sentence-embedding model ('meaning') and feature
 * hashing ('hashing'), both deterministic unit vectors of the size asked for.
 */
import { MODEL_DIMENSIONS, standinEmbedder } from '../../lib/twin/bedrock/embedder';
import { cosineSimilarity, embedText } from '../../lib/twin/bedrock/text';

const byMeaning = standinEmbedder('meaning');
const norm = (v: readonly number[]) => Math.hypot(...v);

test('meaning: 1024 unit-length dimensions, the model’s 512 followed by zeros; a blank text gets a vector too', async () => {
  const [vector, blank] = await byMeaning(['Who approved the Brightline invoices?', ''], 1024);
  for (const v of [vector!, blank!]) {
    expect(v).toHaveLength(1024);
    expect(norm(v)).toBeCloseTo(1, 10);
    expect(v.slice(MODEL_DIMENSIONS).every((x) => x === 0)).toBe(true);
  }
  await expect(byMeaning(['x'], 256)).rejects.toThrow(/512 dimensions/);
}, 30_000);

test('meaning is deterministic: the same text gets exactly the same vector, whatever batch it comes in', async () => {
  const text = 'The racking repair was invoiced in four parts of just under USD 25,000.';
  const [alone] = await byMeaning([text], 1024);
  const [, inBatch, again] = await byMeaning(['Another passage about the warehouse.', text, text], 1024);
  expect(inBatch).toEqual(alone);
  expect(again).toEqual(alone);
});

test('meaning: a paraphrase scores well above an unrelated text, though they share few words', async () => {
  const [question, answer, unrelated] = await byMeaning(
    [
      'Who signed off the payment to the supplier?',
      'The finance manager approved the vendor invoice on 3 March.',
      'The weather was cold and the streets were quiet.',
    ],
    1024,
  );
  const related = cosineSimilarity(question!, answer!);
  const far = cosineSimilarity(question!, unrelated!);
  expect(related).toBeGreaterThan(far + 0.2);
  // the hashing embedder sees no shared content word in the paraphrase
  expect(
    cosineSimilarity(
      embedText('Who signed off the payment to the supplier?', 1024),
      embedText('The finance manager approved the vendor invoice on 3 March.', 1024),
    ),
  ).toBe(0);
});

test('hashing is the feature hashing of standin-text', async () => {
  const texts = ['Red jacket, warehouse!', 'Quarterly revenue grew.'];
  expect(await standinEmbedder('hashing')(texts, 1024)).toEqual(texts.map((t) => embedText(t, 1024)));
});
