/** The middle value of a measurement's runs (the upper of the two middle ones for an even count); NaN for none. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
