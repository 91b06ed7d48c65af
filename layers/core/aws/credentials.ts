/**
 * The SDK's credential chain inside a function: esbuild puts this module in place of the SDK's default chain
 * (@aws-sdk/credential-provider-node) in every bundle (lib/bundling.ts), for every client, Powertools' and the
 * RDS signer's included. Lambda hands a function its role's credentials in AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN — the default chain's first link, the one it settles on there —
 * and so does the twin's runtime; the chain's other links (SSO, profiles, credential processes, web identity,
 * container and instance metadata) only weigh on every bundle. Code not run from a bundle (tools, tests) keeps
 * the SDK's whole chain.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
