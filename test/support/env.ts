// Handlers log JSON through Powertools; tests keep quiet unless asked (POWERTOOLS_LOG_LEVEL=DEBUG npm test).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
