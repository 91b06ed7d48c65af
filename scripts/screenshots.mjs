/**
 * `npm run screenshots`: the README's and docs' screenshots, copied from the browser suite's latest run
 * (reports/web/, written by `npm run test:web`), so they always show the app as the suite last saw it.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const FROM = 'reports/web';
const TO = 'docs/screenshots';

/** docs/screenshots/<name> ← reports/web/<screenshot the browser suite took> */
const SHOWN = {
  'evidence-check.png': '03-evidence-check.png',
  'analysis.png': '04-analysis-gates-passed.png',
  'trust-explained.png': '04a-trust-explained.png',
  'citation-in-document.png': '15b-citation-in-document.png',
  'investigation.png': '07-investigation-analyses.png',
  'prompt-versions.png': 'admin-03-new-version.png',
};

const missing = Object.values(SHOWN).filter((name) => !existsSync(join(FROM, name)));
if (missing.length > 0) {
  console.error(`Run npm run test:web first: ${missing.join(', ')} not in ${FROM}/`);
  process.exit(1);
}
mkdirSync(TO, { recursive: true });
for (const [name, source] of Object.entries(SHOWN)) copyFileSync(join(FROM, source), join(TO, name));
console.log(`${Object.keys(SHOWN).length} screenshots copied from ${FROM}/ to ${TO}/`);
