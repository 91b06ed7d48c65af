/**
 * The web app's security headers and caching: one definition for CloudFront's policies and the deployed objects
 * (lib/stacks/web-stack.ts, web-content-stack.ts) and for the twin, which serves the app itself, so what the browser enforces locally is what it enforces deployed.
 * `connectTo` is where the app may send requests besides its own origin: the deployed API's, and the files bucket's,
 * where the browser uploads files by presigned URL (the twin: its public S3 endpoint; the API is on the app's origin).
 */
export const contentSecurityPolicy = (connectTo: readonly string[] = []): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...connectTo].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

export const WEB_SECURITY = {
  /** two years, subdomains included */
  hstsSeconds: 63_072_000,
  referrerPolicy: 'strict-origin-when-cross-origin',
  frameOptions: 'DENY',
} as const;

/** What the browser may cache: the hashed assets for a year, never changing; everything else revalidated on each load. */
export const CACHE_CONTROL = { assets: 'public, max-age=31536000, immutable', documents: 'no-cache' } as const;

/** The headers as the twin sends them (CloudFront adds HSTS only over HTTPS; the twin serves plain HTTP on 127.0.0.1). */
export const webSecurityHeaders = (connectTo: readonly string[] = []): Record<string, string> => ({
  'content-security-policy': contentSecurityPolicy(connectTo),
  'x-content-type-options': 'nosniff',
  'x-frame-options': WEB_SECURITY.frameOptions,
  'referrer-policy': WEB_SECURITY.referrerPolicy,
});
