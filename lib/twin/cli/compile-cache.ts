/**
 * Imported first by `npm start` (./main.ts): V8's code cache for every module the twin loads after it (Node's
 * module compile cache), kept under node_modules/.cache, so a start after the first compiles none of its
 * JavaScript again (a tenth of a warm start's CPU). Node keys the cache by its version and each module's source.
 * The functions' worker threads are not affected: they run with their template environment only.
 */
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../paths';

enableCompileCache(join(PROJECT_ROOT, 'node_modules', '.cache', 'ias-twin-compile'));
