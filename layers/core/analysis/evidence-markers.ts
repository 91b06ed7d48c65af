/**
 * Fenced prompts: how a model call names the evidence passages it is given, so that text a user wrote
 * (a regeneration direction, a question, a title) can never pass for a cited passage.
 *
 * - Every model call gets fresh markers: one random label per passage (`[chunk:k7q2f9xm]`), issued for
 *   that call only. The service keeps label → chunk id and translates the model's citations back; a
 *   citation counts only when it names a label issued in that call, so a chunk id (or an old label) a
 *   user types is dropped like any other unknown citation.
 * - The marker keeps the `[chunk:…]` shape the stored prompt templates describe ("cite the
 *   [chunk:<id>] markers"), so every stored version, including an administrator's, still reads right;
 *   only what is inside the brackets changed from the chunk id to a label nobody sees in advance.
 * - Square brackets in any text the service did not issue (evidence, user text, the analysis under
 *   review) become parentheses, so the only bracketed markers in a prompt are the issued ones.
 */
import { randomBytes } from 'node:crypto';

/** A fresh label for one passage; random in the service, deterministic where a test or the evals need a stable prompt. */
export type NonceSource = () => string;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A label from 8 bytes: 8 base32 characters, 40 bits. */
export const labelOf8Bytes = (bytes: Uint8Array): string => [...bytes.subarray(0, 8)].map((byte) => BASE32[byte % 32]).join('');

/** 40 random bits: a user who has never seen the prompt cannot guess a label. */
export const randomNonce: NonceSource = () => labelOf8Bytes(randomBytes(8));

export interface EvidenceMarkers {
  /** chunk id → the label issued for it in this call */
  labelOf: ReadonlyMap<string, string>;
  /** issued label → chunk id */
  chunkOf: ReadonlyMap<string, string>;
}

/** One distinct label per chunk, for one model call. */
export const issueMarkers = (chunkIds: readonly string[], nonce: NonceSource = randomNonce): EvidenceMarkers => {
  const labelOf = new Map<string, string>();
  const chunkOf = new Map<string, string>();
  for (const id of new Set(chunkIds)) {
    let label = nonce();
    while (chunkOf.has(label)) label = nonce();
    labelOf.set(id, label);
    chunkOf.set(label, id);
  }
  return { labelOf, chunkOf };
};

/** The marker a passage starts with in the prompt. */
export const marker = (label: string): string => `[chunk:${label}]`;

/** Text the service did not issue, made unable to parse as a marker: square brackets become parentheses. */
export const neutralise = (text: string): string => text.replace(/\[/g, '(').replace(/\]/g, ')');

/**
 * The chunk a model's citation names, or undefined when it names no marker issued in this call.
 * Models cite the label alone, as `chunk:<label>` or as the whole marker; all three are read.
 */
export const citedChunk = (markers: EvidenceMarkers, citation: string): string | undefined => {
  const label = /^\s*\[?\s*(?:chunk:)?\s*([^\]\s]+)\s*\]?\s*$/i.exec(citation)?.[1];
  return label === undefined ? undefined : markers.chunkOf.get(label);
};
