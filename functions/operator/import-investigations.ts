/**
 * The `import-investigations` operator function (`npm run seed -- --stage <stage> --file …`): a presigned
 * upload for a seed file under imports/, then its load in one transaction (layers/core/seed/import.ts).
 * A refusal (invalid file, conflict with existing rows) comes back as `{ ok: false, error }`: nothing loaded.
 */
import { ENV, requireEnv } from '#core/config';
import { database } from '#core/db/connection';
import { ImportRefusal, runImport } from '#core/seed/import';
import { withLambdaContext } from '#core/logger';

export const handler = withLambdaContext(async (event: unknown) => {
  try {
    return { ok: true, result: await runImport({ db: await database(), bucket: requireEnv(ENV.filesBucket) }, event) };
  } catch (error) {
    if (error instanceof ImportRefusal) return { ok: false, error: error.message };
    throw error;
  }
});
