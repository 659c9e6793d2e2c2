import { articles } from '../../shared/generated/articles';
import { legalPages } from '../../shared/generated/legal';
import { formatContentDate } from '../../shared/content-date';

/** What the pages printed through Intl.DateTimeFormat (en-GB, UTC), the words a reader expects. */
const intl = (isoDate: string) => {
  const day = isoDate.length > 7;
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', year: 'numeric', month: 'long', ...(day ? { day: 'numeric' } : {}) }).format(new Date(day ? isoDate : `${isoDate}-01`));
};

describe('formatContentDate', () => {
  it('writes a day as a UK reader does, and a month alone without a day', () => {
    expect(formatContentDate('2025-01-07')).toBe('7 January 2025');
    expect(formatContentDate('2023-05-12')).toBe('12 May 2023');
    expect(formatContentDate('2023-05')).toBe('May 2023');
    expect(formatContentDate('2024-12-31')).toBe('31 December 2024');
  });

  it('prints every date in content/ as Intl.DateTimeFormat does for en-GB', () => {
    const dates = [...articles.flatMap((article) => [article.published, article.updated]), ...legalPages.map((page) => page.updated), '2023-05'];
    expect(dates.length).toBeGreaterThan(30);
    expect(dates.map(formatContentDate)).toEqual(dates.map(intl));
  });

  it('refuses what is not a date', () => {
    expect(() => formatContentDate('2025-13-01')).toThrow('Not a content date');
    expect(() => formatContentDate('7 January 2025')).toThrow('Not a content date');
  });
});
