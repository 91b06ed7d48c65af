// The npm registry reachable here lacks some platform builds that packages list as optional
// (@swc/core-darwin-*, @unrs/resolver-binding-*, …). `npm install` leaves them out of the lock file,
// and `npm ci` then refuses the lock as out of sync. Runs after every install (root postinstall):
// records each missing optional dependency as an optional entry, which npm ci skips when it cannot
// fetch it — as it does for any optional dependency that does not fit the machine.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${location === '' ? '' : `${location}/`}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = { version, optional: true, ...(meta.dev && { dev: true }) };
    added++;
  }
}
if (added > 0) {
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: recorded ${added} optional platform package(s) the registry does not serve`);
}
