// Handlers log JSON through Powertools; tests keep quiet unless asked (POWERTOOLS_LOG_LEVEL=DEBUG npm test).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// The rate limiter counts in the database; tests that do not exercise it turn it off (test/ratelimit sets its own).
process.env.RATE_LIMITS ??= 'off';
