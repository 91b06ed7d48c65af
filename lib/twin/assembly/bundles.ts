/**
 * The functions' code as a deploy ships it: each handler entry bundled by esbuild with the stacks'
 * settings (lib/bundling.ts) into <cache>/<source hash>/bundles/<function id>/index.js — one esbuild
 * run for all of them, once per source change. The worker runtime's own bootstrap is bundled the same
 * way (it must be plain JavaScript: worker threads do not go through jest's or tsx's transforms).
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { esbuildOptions } from '../../bundling';
import { PROJECT_ROOT } from '../../paths';
import { appSourceHash, buildOnce, CACHE_ROOT, hashFiles } from './assembly';

const esbuild = async (entryPoints: Record<string, string>, outdir: string, overrides: BuildOptions = {}) => {
  const { build } = await import('esbuild');
  await build({
    ...esbuildOptions(),
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([out, entry]) => [out, join(PROJECT_ROOT, entry)])),
    outdir,
    ...overrides,
  });
};

/** Bundles every function (by id) once per source hash; returns the folder holding `<id>/index.js`. */
export const ensureBundles = async (entries: { id: string; entry: string }[], sourceHash = appSourceHash()): Promise<string> =>
  buildOnce(join(CACHE_ROOT, sourceHash, 'bundles'), (dir) =>
    esbuild(Object.fromEntries(entries.map(({ id, entry }) => [`${id}/index`, entry])), dir),
  );

/** The worker bootstrap (lib/twin/runtime/bootstrap.ts) as one JavaScript file. */
export const ensureBootstrap = async (): Promise<string> => {
  const dir = await buildOnce(join(CACHE_ROOT, `runtime-${hashFiles(['lib/twin/runtime/bootstrap.ts', 'package-lock.json'])}`), (out) =>
    esbuild({ bootstrap: 'lib/twin/runtime/bootstrap.ts' }, out, { minify: false, external: [] }),
  );
  return join(dir, 'bootstrap.js');
};
