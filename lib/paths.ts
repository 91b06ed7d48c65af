import { join, resolve } from 'node:path';

export const PROJECT_ROOT = resolve(__dirname, '..');

/** The twin's default state folder, where `npm start` also leaves the pointer to a twin run elsewhere (twin/running.ts). */
export const DEFAULT_TWIN_DIR = join(PROJECT_ROOT, '.twin');

/** The twin's state folder: TWIN_DIR, or .twin in the project. */
export const twinDirectory = (): string => resolve(process.env.TWIN_DIR ?? DEFAULT_TWIN_DIR);

/** The web app's production build (`npm run build:web`, vite): index.html and hashed assets/, which the web content stack uploads. */
export const WEB_DIST = join(PROJECT_ROOT, 'web', 'dist');
