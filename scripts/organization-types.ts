// npx tsx scripts/organization-types.ts
// Writes server/site-check/analysers/organization-types.json: schema.org's Organization and every
// type below it (LocalBusiness, Electrician, Restaurant, ...), read from the type hierarchy that
// schema-dts (a devDependency, generated from schema.org's own vocabulary) declares. Run it after
// upgrading schema-dts to follow a new schema.org release.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const declarations = readFileSync(path.join(root, 'node_modules', 'schema-dts', 'dist', 'schema.d.ts'), 'utf8');
const version = (JSON.parse(readFileSync(path.join(root, 'node_modules', 'schema-dts', 'package.json'), 'utf8')) as { version: string }).version;

// A class is declared as `export type Name = NameLeaf | SubtypeA | SubtypeB | string;`.
const subtypes = new Map<string, string[]>();
for (const line of declarations.split('\n')) {
  const match = /^export type (\w+) = ([\w |]+);$/.exec(line);
  if (!match?.[1] || !match[2]) continue;
  const name = match[1];
  const parts = match[2].split('|').map((part) => part.trim());
  if (!parts.includes('string')) continue;
  subtypes.set(name, parts.filter((part) => part !== 'string' && part !== `${name}Leaf`));
}

const types = new Set<string>();
const visit = (name: string) => {
  if (types.has(name)) return;
  types.add(name);
  for (const child of subtypes.get(name) ?? []) visit(child);
};
visit('Organization');
if (!types.has('LocalBusiness')) throw new Error('schema-dts no longer lists LocalBusiness under Organization: check its format');

const out = path.join(root, 'server', 'site-check', 'analysers', 'organization-types.json');
writeFileSync(out, `${JSON.stringify({ $comment: `schema.org's Organization and its subtypes, from schema-dts ${version} by scripts/organization-types.ts. Do not edit.`, types: [...types].sort() }, null, 2)}\n`);
console.log(`${types.size} types written to ${path.relative(root, out)}`);
