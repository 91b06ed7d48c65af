import { embedText } from '../../lib/twin/bedrock/text';
import { seededRandom } from './random';

/**
 * Versions of a few passages, as drafts and filled-in templates are (each copy with `replaced` of its words changed),
 * then `unrelated` passages, embedded by the twin's embedder; the queries are fragments (8–13 words) of the passages,
 * taking turns. The hard case for the HNSW graph (docs/retrieval.md): hundreds of chunks almost equally near.
 */
export const versionsCorpus = (options: { texts: number; versions: number; replaced: number; unrelated?: number; queries: number }) => {
  const next = seededRandom(17);
  const word = () => `w${Math.floor(Math.pow(3_000, next()))}`; // Zipf-like: small numbers are frequent
  const passage = () => Array.from({ length: 40 + Math.floor(next() * 40) }, word);
  const texts = Array.from({ length: options.texts }, passage);
  const chunks = [
    ...texts.flatMap((text) =>
      Array.from({ length: options.versions }, () => text.map((w) => (next() < options.replaced ? word() : w)).join(' ')),
    ),
    ...Array.from({ length: options.unrelated ?? 0 }, () => passage().join(' ')),
  ].map((text) => ({ text, embedding: embedText(text, 1024) }));
  const queries = Array.from({ length: options.queries }, (_, q) => {
    const text = texts[q % options.texts]!;
    const start = Math.floor(next() * (text.length - 14));
    return embedText(text.slice(start, start + 8 + Math.floor(next() * 6)).join(' '), 1024);
  });
  return { chunks, queries };
};
