// Handlers log JSON through Powertools; tests keep quiet unless asked (POWERTOOLS_LOG_LEVEL=DEBUG npm test).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// The rate limiter counts in the database; tests that do not exercise it turn it off (test/ratelimit sets its own).
process.env.RATE_LIMITS ??= 'off';
// Every twin of the run records its functions' AWS calls for `npm run iam-report` (global-setup empties the file first).
process.env.TWIN_RECORD_CALLS ??= '1';
// Every answer a handler gives in a test is checked against its route's contract (layers/core/http/route.ts).
process.env.RESPONSE_VALIDATION ??= 'strict';
