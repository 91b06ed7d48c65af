/**
 * Builds a module-level value (a zod schema, a route contract) as its module loads, written
 * `/* @__PURE__ *\/ ifUsed(() => …)` so that a bundle keeps it only when the function reaches it. A bare
 * chain of zod methods (`.describe`, `.nullable`, `.extend`) may have side effects as far as esbuild knows,
 * so without the annotation every function would build every schema and contract of each module it
 * imports, a feature's whole contract for one route: about 6 ms of the median function's init, more where the
 * feature's contract module is large (`npm run bench -- bundles`).
 * ESLint requires the form (eslint.config.mjs).
 */
export const ifUsed = <T>(build: () => T): T => build();
