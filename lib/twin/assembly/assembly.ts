/**
 * The cloud assembly the twin renders: `cdk synth`'s output for the stage (./synth.ts writes it, in a
 * child process), cached under node_modules/.cache/ias-twin by a hash of the sources that shape it, so
 * a start after no change reads it in milliseconds and a start after a change synthesizes again.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../paths';

/** Beside the templates: which handler module each service function runs (the construct tree knows, a template does not). */
export const FUNCTIONS_FILE = 'twin-functions.json';

export interface FunctionEntry {
  /** construct id: the manifest id (`analysis-get`), or `migrate` */
  id: string;
  stack: string;
  logicalId: string;
  /** handler module relative to the project root */
  entry: string;
}

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Condition?: string;
}

export interface TemplateParameter {
  Type: string;
  Default?: unknown;
  Description?: string;
}

export interface Template {
  Parameters?: Record<string, TemplateParameter>;
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
  Conditions?: Record<string, unknown>;
  Mappings?: Record<string, Record<string, Record<string, unknown>>>;
}

export interface CloudAssembly {
  dir: string;
  /** by stack name */
  templates: Map<string, Template>;
  functions: FunctionEntry[];
}

export const CACHE_ROOT = join(PROJECT_ROOT, 'node_modules', '.cache', 'ias-twin');

/** What the templates and the handler bundles are made from (the twin's own code, lib/twin, is not). */
const APP_SOURCES = ['bin', 'lib', 'layers', 'functions', 'cdk.json', 'package.json', 'package-lock.json', 'tsconfig.json'];

const filesUnder = (path: string, skip: (p: string) => boolean): string[] => {
  if (!existsSync(path) || skip(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name), skip));
};

/** A content hash of files (relative names and bytes), short enough for a folder name. */
export const hashFiles = (paths: string[], skip: (p: string) => boolean = () => false): string => {
  const hash = createHash('sha256');
  for (const file of paths.flatMap((p) => filesUnder(join(PROJECT_ROOT, p), skip))) {
    hash.update(relative(PROJECT_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
};

const TWIN_SOURCES = join(PROJECT_ROOT, 'lib', 'twin');
export const appSourceHash = (): string => hashFiles(APP_SOURCES, (p) => p === TWIN_SOURCES);

/**
 * Builds into a private folder and renames it into place, so concurrent twins (jest workers) never see
 * half a result; the loser of a race drops its copy.
 */
export const buildOnce = async (target: string, build: (dir: string) => Promise<void>): Promise<string> => {
  if (existsSync(target)) {
    // what a running twin reads
    markUsed(dirname(target) === CACHE_ROOT ? target : dirname(target));
    return target;
  }
  const partial = `${target}.partial-${process.pid}-${Date.now()}`;
  await mkdir(partial, { recursive: true });
  try {
    await build(partial);
    await rename(partial, target).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(target)) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return target;
};

const contextKey = (context: Record<string, string>): string =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex')
    .slice(0, 12);

const runSynth = (outdir: string, context: Record<string, string>): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(__dirname, 'synth.ts'), outdir, JSON.stringify(context)],
      {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk synth for the twin failed (exit ${code}):\n${stderr}`))));
  });

/** The cloud assembly of the stage for this CDK context (e.g. `{ rateLimits: 'off' }`), synthesized when the sources changed. */
export const ensureAssembly = async (context: Record<string, string> = {}, sourceHash = appSourceHash()): Promise<string> =>
  buildOnce(join(CACHE_ROOT, sourceHash, `assembly-${contextKey(context)}`), (dir) => runSynth(dir, context));

export const readAssembly = (dir: string): CloudAssembly => {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }>;
  };
  const templates = new Map<string, Template>();
  for (const [name, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    templates.set(
      artifact.properties.stackName ?? name,
      JSON.parse(readFileSync(join(dir, artifact.properties.templateFile), 'utf8')) as Template,
    );
  }
  return { dir, templates, functions: JSON.parse(readFileSync(join(dir, FUNCTIONS_FILE), 'utf8')) as FunctionEntry[] };
};

/** Cache folders of a kind other than source hashes, by name prefix: runtime bootstraps, pristine databases (../pgdata-template.ts). */
const CACHE_KINDS = ['runtime-', 'pgdata-', 'web-'];

/** Sets a cache folder's last use (its mtime) to now, so pruning (pruneFolders, newest first) keeps it. */
export const markUsed = (folder: string): void => {
  const now = new Date();
  utimesSync(folder, now, now);
};

/**
 * Of the folders in `root`, keeps the newest `keep` of each kind given (a name prefix; '' for a name with none of the
 * others) by last use (markUsed); older ones only fill the disk. A folder of no kind given, or still being written
 * (`.partial-` in its name), is left alone.
 */
export const pruneFolders = async (root: string, kinds: readonly string[], keep = 3): Promise<void> => {
  if (!existsSync(root)) return;
  const dirs = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.includes('.partial-'))
    .map(({ name }) => ({ name, usedMs: statSync(join(root, name)).mtimeMs }))
    .sort((a, b) => b.usedMs - a.usedMs);
  const kindOf = (name: string) => kinds.find((prefix) => prefix && name.startsWith(prefix)) ?? '';
  const stale = kinds.flatMap((kind) => dirs.filter((d) => kindOf(d.name) === kind).slice(keep));
  await Promise.all(stale.map(({ name }) => rm(join(root, name), { recursive: true, force: true })));
};

/** Keeps the newest few caches of each kind (source hashes; runtime bootstraps; pristine databases). */
export const pruneCache = (keep = 3): Promise<void> => pruneFolders(CACHE_ROOT, ['', ...CACHE_KINDS], keep);
