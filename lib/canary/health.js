/**
 * CloudWatch Synthetics canary (syn-nodejs-puppeteer runtime, no browser used): one HTTP step,
 * GET $HEALTH_URL, which passes only on 200 with `"status": "ok"`. On anything else the step fails with
 * the status and the components the health report names as failing, which shows in the canary's run
 * and log. Plain CommonJS: the Synthetics runtime runs this file as is (no bundling).
 */
const synthetics = require('Synthetics');

/** The failing components of a health report, e.g. `database: connect ECONNREFUSED`. */
const failing = (report) =>
  Object.entries((report && report.checks) || {})
    .filter(([, check]) => check && check.status !== 'ok')
    .map(([name, check]) => `${name}: ${check.error || check.status}`);

/** Throws unless the health endpoint answered 200 with a report whose status is ok. */
const verify = (statusCode, body) => {
  let report;
  try {
    report = JSON.parse(body);
  } catch {
    throw new Error(`health answered ${statusCode} without a JSON report: ${String(body).slice(0, 200)}`);
  }
  if (statusCode !== 200 || report.status !== 'ok') {
    throw new Error(`health answered ${statusCode} (${report.status}); failing: ${failing(report).join('; ') || 'none named'}`);
  }
};

const readBody = (res) =>
  new Promise((resolve, reject) => {
    let body = '';
    res.on('data', (chunk) => {
      body += chunk;
    });
    res.on('end', () => resolve(body));
    res.on('error', reject);
  });

exports.verify = verify;

exports.handler = async () => {
  const url = new URL(process.env.HEALTH_URL);
  await synthetics.executeHttpStep(
    'GET /api/health',
    {
      hostname: url.hostname,
      port: 443,
      protocol: url.protocol,
      method: 'GET',
      path: url.pathname,
      headers: { 'User-Agent': synthetics.getCanaryUserAgentString() },
    },
    async (res) => verify(res.statusCode, await readBody(res)),
  );
};
