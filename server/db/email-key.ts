import { domainToASCII } from 'node:url';

/** Unicode case folding, near enough: lower, upper, then lower case, so that ß, ẞ and SS meet. */
function fold(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase();
}

/**
 * One key per mailbox however its address is written: compatibility-normalised (NFKC), case
 * folded in Unicode (COLLATE NOCASE folds only A-Z), and the domain in its ASCII form, so that
 * jörg@münchen.de, JÖRG@MÜNCHEN.DE and jörg@xn--mnchen-3ya.de are one person.
 */
export function emailKey(address: string): string {
  const normalised = address.trim().normalize('NFKC');
  const at = normalised.lastIndexOf('@');
  if (at === -1) return fold(normalised);
  const domain = fold(normalised.slice(at + 1));
  return `${fold(normalised.slice(0, at))}@${domainToASCII(domain) || domain}`;
}
