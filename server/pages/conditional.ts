/**
 * Conditional GET: true when If-None-Match names one of the representation's validators, or is
 * '*'. If-None-Match uses the weak comparison (RFC 9110 13.1.2), so W/ prefixes are ignored.
 */
export function isNotModified(etags: ReadonlySet<string>, ifNoneMatch: string | undefined): boolean {
  if (!ifNoneMatch || etags.size === 0) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => etags.has(tag.trim().replace(/^W\//, '')));
}
