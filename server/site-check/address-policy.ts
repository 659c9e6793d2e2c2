import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the site check may connect to. A visitor chooses the URL, so every
 * address a host resolves to is judged here, by ipaddr.js's classification of the special ranges
 * (IANA's special-purpose registries), never by parsing addresses by hand.
 */

/** The only ports a checked site may use, unless its address is on the allowlist. */
export const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** IPv6's global unicast block: everything outside it is special-purpose or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Plain words for ipaddr.js's range names, for a refusal a person reads. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  loopback: 'a loopback address (the machine itself)',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  uniqueLocal: 'a private (unique local) IPv6 address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'an IPv4/IPv6 translation (NAT64) address',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
};

/** SITE_CHECK_ALLOW, parsed: addresses and CIDR blocks the check may reach on any port. */
export type AddressAllowlist = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/**
 * Parses a comma-separated list of addresses and CIDRs ("127.0.0.1, 10.0.0.0/8, ::1"); throws
 * with the entry that is neither. An address alone stands for itself (/32 or /128). The one
 * reading of such a list in the configuration: SITE_CHECK_ALLOW and TRUST_PROXY.
 */
export function parseAddressList(value: string): AddressAllowlist {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
      if (entry.includes('/')) {
        if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not an IP address or CIDR`);
        return ipaddr.parseCIDR(entry);
      }
      // isValidFourPartDecimal: "127.1" or "0x7f.1" in a configuration is a typo, not an address.
      if (!ipaddr.IPv6.isValid(entry) && !ipaddr.IPv4.isValidFourPartDecimal(entry)) throw new Error(`"${entry}" is not an IP address or CIDR`);
      const address = ipaddr.parse(entry);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    });
}

function allowlisted(address: ipaddr.IPv4 | ipaddr.IPv6, allowlist: AddressAllowlist): boolean {
  return allowlist.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/**
 * Why the check may not connect to `address` on `port`, or null when it may. Allowed: a global
 * unicast address on port 80 or 443, or an address on the allowlist on any port. Refused: every
 * special range (loopback, private, link-local, CGNAT, multicast, reserved, documentation...) and
 * every IPv6 form that carries an IPv4 address (mapped, translated, NAT64, 6to4, Teredo), however
 * it was written: `address` is what the resolver or the URL parser produced, already canonical.
 * `hostname`, when the address came from resolving a name, is named in the refusal.
 */
export function addressRefusal(address: string, port: number, allowlist: AddressAllowlist, hostname?: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (allowlisted(parsed, allowlist)) return null;
  const range = parsed.range();
  const globalUnicast = range === 'unicast' && (parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST_V6));
  if (!globalUnicast) {
    const kind = RANGE_NAMES[range] ?? `not a public address (${range})`;
    return `${hostname ? `${hostname} resolves to ${parsed.toString()},` : `${parsed.toString()} is`} ${kind}, which the checker never fetches`;
  }
  if (!WEB_PORTS.has(port)) return `port ${port} is not a web port (only 80 and 443 are checked)`;
  return null;
}

/** The same address however it is written ("::1", "0:0::1"), to compare a socket's peer with what was checked. */
export function sameAddress(a: string, b: string): boolean {
  if (!ipaddr.isValid(a) || !ipaddr.isValid(b)) return false;
  const left = ipaddr.parse(a);
  const right = ipaddr.parse(b);
  return left.kind() === right.kind() && left.toNormalizedString() === right.toNormalizedString();
}
