/**
 * Renders the deployment the end-to-end tests run (the cloud assembly of E2E_CONTEXT, and the handler
 * bundles) once before the test files start, so their twins read it from the cache instead of
 * synthesizing side by side. Run by global-setup in a tsx child process.
 */
import { renderDeployment } from '../../lib/twin/assembly/deployment';
import { ensureWebApp } from '../../lib/twin/gateway/web-app';

/**
 * The CDK context of an end-to-end test's twin unless the test names its own: the handlers' rate limits
 * and the gateway's stage throttles off, since tests send many requests in a moment (test/ratelimit and
 * test/twin/gateway-throttle.e2e.test.ts turn them on).
 */
export const E2E_CONTEXT: Readonly<Record<string, string>> = { rateLimits: 'off', gatewayThrottles: 'off' };

// with the web app's build, which every twin serves: built once here rather than by each suite's twin at once
if (require.main === module) void Promise.all([renderDeployment({ context: { ...E2E_CONTEXT } }), ensureWebApp()]);
