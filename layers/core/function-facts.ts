/**
 * The manifest's facts about the functions this process may run: their routes, timeouts and resources. A
 * function's bundle reads its own from FUNCTION_FACTS, which the stacks write from the manifest
 * (lib/stacks/service-function.ts): esbuild's FUNCTION_BUNDLE (lib/bundling.ts) makes the other branch dead code,
 * so the manifest itself, every function's spec, stays out of the bundle. Code run from source (tests, tools, the
 * twin's own process) reads the manifest.
 */
import type { FunctionFacts } from '#manifest';
import { env, ENV } from './config';

declare const FUNCTION_BUNDLE: true | undefined;

/** A bundle's own facts; none for a function the manifest does not declare (the deploy's migrate function). */
const ownFacts = (json: string | undefined): FunctionFacts[] => (json === undefined ? [] : [JSON.parse(json) as FunctionFacts]);

/** Every function's facts, from the manifest itself (loaded only here, so that a bundle does not carry it). */
const fromManifest = (): FunctionFacts[] => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only from source: in a bundle this call is dead code
  const { functions, functionFacts } = require('#manifest') as typeof import('#manifest');
  return functions.map(functionFacts);
};

export const manifestFacts = (): FunctionFacts[] =>
  typeof FUNCTION_BUNDLE !== 'undefined' ? ownFacts(env(ENV.functionFacts)) : fromManifest();
