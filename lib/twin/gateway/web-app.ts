/**
 * The twin serves the reference web app (web/) at `/`, as CloudFront serves it deployed: the production
 * build, its hashed assets cached for a year and everything else answered with index.html (the app's routes
 * are real paths), with the same security headers (lib/web-security.ts) and a /config.json that names no API
 * origin (the API is this origin). The build is cached under node_modules/.cache/ias-twin by the content of
 * web/ and the lockfile, so only a start after a change to the app pays for Vite (about a second).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../paths';
import { CACHE_CONTROL, webSecurityHeaders } from '../../web-security';
import { buildOnce, CACHE_ROOT, hashFiles } from '../assembly/assembly';
import type { GatewayExtra } from './gateway';

/** What the build is made of. */
const WEB_SOURCES = ['web/index.html', 'web/vite.config.mts', 'web/src', 'web/api', 'package-lock.json'];
/** Cache folders of web builds start with this (assembly.ts CACHE_KINDS). */
const WEB_BUILD_PREFIX = 'web-';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * Builds the app with Vite's CLI into `outDir`, as `npm run build:web` writes web/dist. A child process: Vite is
 * ESM only, and the twin also runs inside jest's CommonJS module system.
 */
const buildWebApp = async (outDir: string): Promise<void> => {
  const vite = join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = join(PROJECT_ROOT, 'web', 'vite.config.mts');
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: PROJECT_ROOT,
    },
  );
};

/** The app's build for this content of web/, built now if there is none. */
export const ensureWebApp = (): Promise<string> => buildOnce(join(CACHE_ROOT, `${WEB_BUILD_PREFIX}${hashFiles(WEB_SOURCES)}`), buildWebApp);

/** The path as the file system names it; undefined for a malformed escape (`%E0%A4%A`), which is the app's to answer, not a 500. */
const decodedPath = (pathname: string): string | undefined => {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
};

/**
 * The gateway's answer for a path outside /api/: a file of the build, or index.html for the app's routes. `connectTo`:
 * origins the app may send requests to besides its own (the public S3 endpoint, where it uploads files).
 */
export const webAppSite = (root: string, connectTo: readonly string[] = []): ((pathname: string) => GatewayExtra) => {
  const files = new Map<string, Buffer>();
  const read = (relative: string) => {
    let body = files.get(relative);
    if (!body) {
      body = readFileSync(join(root, relative));
      files.set(relative, body);
    }
    return body;
  };
  const security = webSecurityHeaders(connectTo);
  const config = Buffer.from(JSON.stringify({ apiBaseUrl: '' }));
  return (pathname) => {
    if (pathname === '/config.json')
      return { contentType: TYPES['.json']!, body: config, headers: { ...security, 'cache-control': CACHE_CONTROL.documents } };
    const relative = normalize(decodedPath(pathname) ?? '/').replace(/^[/\\]+/, '');
    if (relative.startsWith(`assets${sep}`) && !relative.includes('..')) {
      try {
        return {
          contentType: TYPES[extname(relative)] ?? 'application/octet-stream',
          body: read(relative),
          headers: { ...security, 'cache-control': CACHE_CONTROL.assets },
        };
      } catch {
        return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not found', headers: security };
      }
    }
    return { contentType: TYPES['.html']!, body: read('index.html'), headers: { ...security, 'cache-control': CACHE_CONTROL.documents } };
  };
};
