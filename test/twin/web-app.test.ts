/**
 * The twin serves the web app outside /api/ as CloudFront does: index.html for the app's routes (no-cache),
 * hashed assets cached for a year, /config.json naming no API origin, the security headers on every answer,
 * nothing outside the build, and /api/ paths never answered by the app.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway } from '../../lib/twin/gateway/gateway';
import { webAppSite } from '../../lib/twin/gateway/web-app';

let server: Server;
let base: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ias-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'not served');
  server = createServer(
    createGateway({
      account: '000000000000',
      api: { id: 'api', routes: [], throttles: { routes: {} } },
      authorize: async () => ({}),
      invoke: async () => {
        throw new Error('no functions here');
      },
      site: webAppSite(root),
    }),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  rmSync(root, { recursive: true, force: true });
});

test.each(['/', '/investigations/5d0c1f7e-0000-4000-8000-000000000000', '/secret.txt', '/%E0%A4%A'])(
  '%s answers the app (index.html, not cached)',
  async (path) => {
    const res = await fetch(base + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe('<!doctype html><title>app</title>');
  },
);

test('every answer carries the security headers CloudFront adds', async () => {
  const res = await fetch(`${base}/`);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
});

test('hashed assets are served with a year of caching; a missing or escaping one is a 404', async () => {
  const asset = await fetch(`${base}/assets/index-abc123.js`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
  const escaping = await fetch(`${base}/assets/%2e%2e/secret.txt`);
  expect(await escaping.text()).not.toBe('not served');
});

test('/config.json names no API origin: the API is this origin', async () => {
  const res = await fetch(`${base}/config.json`);
  expect(await res.json()).toEqual({ apiBaseUrl: '' });
});

test('/api/ paths are the API’s, never the app’s; only GET and HEAD reach the app', async () => {
  const api = await fetch(`${base}/api/nothing-here`);
  expect(api.status).toBe(404);
  expect(api.headers.get('content-type')).not.toContain('text/html');
  expect((await fetch(`${base}/`, { method: 'HEAD' })).status).toBe(200);
  expect((await fetch(`${base}/`, { method: 'POST', body: '{}' })).status).toBe(404);
});
