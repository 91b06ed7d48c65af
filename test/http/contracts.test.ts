/**
 * The contracts and the manifest agree: every HTTP route the manifest deploys has exactly one contract
 * in the registry, and no contract serves a route the manifest does not have (a handler bound to one
 * would fail its cold start: test/http/route.test.ts).
 */
import { httpRoutes } from '#manifest';
import { ROUTE_CONTRACTS } from '#core/http/contracts';

const routeKeys = httpRoutes().map((r) => `${r.method} ${r.path}`);

test('one contract per manifest route, and none besides', () => {
  expect(ROUTE_CONTRACTS.map((c) => c.route).sort()).toEqual([...routeKeys].sort());
});

test('no GET route declares a body (API Gateway and browsers do not send one)', () => {
  expect(ROUTE_CONTRACTS.filter((c) => c.route.startsWith('GET ') && c.body).map((c) => c.route)).toEqual([]);
});
