import { join, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(__dirname, '..');

/** The twin's state folder: TWIN_DIR, or .twin in the project. */
export const twinDirectory = (): string => resolve(process.env.TWIN_DIR ?? join(PROJECT_ROOT, '.twin'));
