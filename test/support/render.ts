/**
 * Renders the deployment the end-to-end tests run (the cloud assembly with rate limiting off, and the
 * handler bundles) once before the test files start, so their twins read it from the cache instead of
 * synthesizing side by side. Run by global-setup in a tsx child process.
 */
import { renderDeployment } from '../../lib/twin/twin';

if (require.main === module) void renderDeployment({ context: { rateLimits: 'off' } });
