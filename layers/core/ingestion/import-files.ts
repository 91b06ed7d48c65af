/**
 * A bulk import's file in the files bucket, as the import worker reads it: ndjson line by line from a byte offset
 * (a ranged GET, so a run resumes without reading again what an earlier one wrote), a seed-format file whole; and
 * the inline texts it writes as files under org/.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { s3Client } from '#core/aws/clients';
import { ENV, requireEnv } from '#core/config';
import { s3Storage } from '#core/storage';
import type { ImportFiles, RawLine } from './import-run';

/** Pure: splits a byte stream into lines (a trailing line without a newline included), each with its length in bytes. */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<RawLine> {
  let pending = Buffer.alloc(0);
  for await (const chunk of chunks) {
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let newline = pending.indexOf(10, start); newline >= 0; newline = pending.indexOf(10, start)) {
      const line = pending.subarray(start, newline);
      yield { text: line.toString('utf8').replace(/\r$/, ''), bytes: newline - start + 1 };
      start = newline + 1;
    }
    pending = pending.subarray(start);
  }
  if (pending.length > 0) yield { text: pending.toString('utf8').replace(/\r$/, ''), bytes: pending.length };
}

export const s3ImportFiles = (bucket = requireEnv(ENV.filesBucket)): ImportFiles => {
  const storage = s3Storage(bucket);
  const body = async (key: string, from = 0) => {
    const object = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(from > 0 && { Range: `bytes=${from}-` }) }));
    return object.Body!;
  };
  return {
    lines: (key, from) => ({
      [Symbol.asyncIterator]: async function* () {
        let stream;
        try {
          stream = await body(key, from);
        } catch (error) {
          // a run that wrote the last line but stopped before marking the import complete resumes at its end
          if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) return;
          throw error;
        }
        yield* splitLines(stream as unknown as Readable);
      },
    }),
    text: async (key) => (await body(key)).transformToString('utf8'),
    put: (key, text, contentType) => storage.put(key, text, contentType),
  };
};
