// Writes each provisioned dashboard (../dashboards/*.json) as a typed TypeScript constant, so that
// tsc checks the JSON against the schema as an object literal (unknown keys are errors there).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dashboards = join(here, '..', 'dashboards');
const generated = join(here, 'generated');
rmSync(generated, { recursive: true, force: true });
mkdirSync(generated);
for (const file of readdirSync(dashboards).filter((f) => f.endsWith('.json'))) {
  const json = JSON.stringify(JSON.parse(readFileSync(join(dashboards, file), 'utf8')), null, 2);
  writeFileSync(join(generated, file.replace(/\.json$/, '.ts')),
    `// generated from dashboards/${file} by wrap-dashboards.mjs\n`
    + `import type { KcscaleDashboard } from '../dashboard-types';\n\n`
    + `export const dashboard: KcscaleDashboard = ${json};\n`);
}
