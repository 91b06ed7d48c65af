/**
 * Files go from the browser straight to storage: the API answers a presigned PUT (its URL, the headers its
 * signature binds, the body's length bound too) and the file is sent there as it is. XMLHttpRequest, because
 * fetch reports no upload progress.
 */

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/** A fresh idempotency key: one per submitted form, so a double click or a retry never makes two items. */
export const newKey = (): string => crypto.randomUUID();

/** Headers a browser sets itself and refuses from a script. */
const FORBIDDEN_HEADERS = new Set(['content-length', 'host']);

/** Why storage refused an upload, for people; the S3 error code is in its XML answer. */
const refusal = (status: number, body: string): string => {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (code === 'AccessDenied' && /expired/i.test(body)) return 'The upload link expired. Retry to get a new one.';
  if (code === 'SignatureDoesNotMatch')
    return 'Storage refused the file: it is not the file that was declared (its size or type changed). Retry.';
  return `Storage refused the file (${code ?? status}). Retry; if it keeps failing, remove the file and add it again.`;
};

/** Sends `file` by the presigned `upload`, reporting the fraction sent; rejects with a message for people. */
export const putFile = (upload: PresignedUpload, file: Blob, onProgress: (fraction: number) => void): Promise<void> =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(upload.method, upload.url);
    for (const [name, value] of Object.entries(upload.headers))
      if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else reject(new Error(refusal(xhr.status, xhr.responseText)));
    };
    xhr.onerror = () => reject(new Error('The file could not be sent: storage cannot be reached. Check your connection and retry.'));
    xhr.onabort = () => reject(new Error('The upload was stopped. Retry to send the file.'));
    xhr.send(file);
  });
