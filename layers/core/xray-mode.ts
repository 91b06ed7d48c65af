/**
 * The X-Ray SDK's context mode, set before the SDK loads (./tracer.ts imports this module first). In its automatic mode
 * the SDK enables, as it loads, an async hook (cls-hooked) that follows every promise and resource of the process. In a
 * Lambda environment that is how a subsegment finds its segment. Outside one (the twin's own process, the CLIs, the
 * tests) the tracer is off and the hook is pure cost: in the twin's process it followed every promise of its database,
 * queues and gateway. Manual mode leaves it off there; a Lambda environment (AWS_EXECUTION_ENV, which the Tracer reads
 * too) keeps automatic mode, and a mode set by hand is kept.
 */
if (!process.env.AWS_EXECUTION_ENV) process.env.AWS_XRAY_MANUAL_MODE ??= 'true';
