/**
 * The embedded engine: PGlite (PostgreSQL compiled to WebAssembly) with pgvector, for the local twin, the tests and the
 * CLIs. Its packages (and node:v8) are loaded on first use, so a deployed bundle, whose database is PostgreSQL, neither
 * carries them nor loads them at init.
 */

/**
 * V8 runs WebAssembly first as its baseline compiler's code, then recompiles each function that has run enough (the
 * tiering budget: about 13 MB of code executed, by default) with its optimizing compiler, on background threads.
 * Most PGlite instances here live for one test file or one twin start and run a few hundred statements, and those
 * recompilations cost them more CPU than they win back. At 15 times the default budget, an instance opened from the
 * test template that ran 200 statements took 1.91 CPU-seconds against 2.24 (five runs each, interleaved), one that ran
 * 3,000 took the same either way (5.56 against 5.71); a budget 50 times the default slowed the long one (5.86).
 * The flag is the process's: other WebAssembly a process compiles (PDF.js's image decoders) tiers up later too.
 */
const WASM_TIERING_BUDGET = 200_000_000;

/** A PGlite in dataDir (`memory://` for none), first loaded from a dump of a data directory if one is given. */
export const openPglite = async (dataDir: string, loadDataDir?: Blob) => {
  const [{ PGlite }, { vector }, { setFlagsFromString }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('node:v8'),
  ]);
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  return PGlite.create({ dataDir, extensions: { vector }, ...(loadDataDir && { loadDataDir }) });
};
