/**
 * `npm run docs`: rewrites the README's generated tables (the endpoints from the route
 * registry, the event catalogue) in place; their unit tests fail while they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { endpointTable } from '#lib/docs/endpoint-table';
import { eventCatalogueTable } from '#lib/docs/event-catalogue';

const readmePath = new URL('../README.md', import.meta.url);
const sections = { endpoints: endpointTable, 'event-catalogue': eventCatalogueTable };

let readme = readFileSync(readmePath, 'utf8');
for (const [name, table] of Object.entries(sections)) {
  const section = new RegExp(`(<!-- ${name}:[^\\n]*-->\\n)[\\s\\S]*?(\\n<!-- /${name} -->)`);
  if (!section.test(readme)) throw new Error(`README.md has no <!-- ${name}: ... --> section`);
  readme = readme.replace(section, (_match, start: string, end: string) => start + table() + end);
}
writeFileSync(readmePath, readme);
