/**
 * A temporary folder for the enclosing describe block (or file): made before its tests and removed after them, so a
 * run filtered to other tests makes none, and none is left behind in TMPDIR (the run's memory filesystem, jest.config.js).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const useTemporaryFolder = (prefix: string): { readonly dir: string } => {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      if (!dir) throw new Error('the temporary folder is made in beforeAll');
      return dir;
    },
  };
};
