/**
 * Which IP addresses an outbound request (webhook delivery, URL import) may reach.
 *
 * Only globally routable unicast addresses are 'public'. Everything else (loopback, private,
 * link-local, unspecified, multicast, documentation, benchmarking, unallocated IPv6 space, ...)
 * is refused, and IPv6 forms that embed an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) take the class of the embedded IPv4 address.
 *
 * Pure functions, no I/O: safe-request.ts calls them on every address it is about to connect to.
 */
import { isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'unspecified' | 'multicast';

export interface HostLiteral {
  family: 4 | 6;
  /** Canonical text: dotted quad for IPv4, compressed lower-case form (no brackets) for IPv6. */
  address: string;
}

// ---------------------------------------------------------------------------------------------
// IPv4

interface Cidr4 {
  base: number;
  bits: number;
  cls: AddressClass;
}

function cidr4(text: string, cls: AddressClass): Cidr4 {
  const [addr, bits] = text.split('/') as [string, string];
  const base = parseDottedQuad(addr);
  if (base === null) throw new Error(`bad CIDR ${text}`);
  return { base, bits: Number(bits), cls };
}

/** Most specific first: the first match wins. */
const IPV4_TABLE: readonly Cidr4[] = [
  cidr4('0.0.0.0/32', 'unspecified'),
  cidr4('255.255.255.255/32', 'reserved'), // limited broadcast
  cidr4('0.0.0.0/8', 'reserved'), // "this network"
  cidr4('10.0.0.0/8', 'private'),
  cidr4('100.64.0.0/10', 'private'), // carrier-grade NAT shared space
  cidr4('127.0.0.0/8', 'loopback'),
  cidr4('169.254.0.0/16', 'link-local'), // includes cloud metadata 169.254.169.254
  cidr4('172.16.0.0/12', 'private'),
  cidr4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  cidr4('192.0.2.0/24', 'reserved'), // TEST-NET-1
  cidr4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  cidr4('192.168.0.0/16', 'private'),
  cidr4('198.18.0.0/15', 'reserved'), // benchmarking
  cidr4('198.51.100.0/24', 'reserved'), // TEST-NET-2
  cidr4('203.0.113.0/24', 'reserved'), // TEST-NET-3
  cidr4('224.0.0.0/4', 'multicast'),
  cidr4('240.0.0.0/4', 'reserved'), // future use
];

function parseDottedQuad(text: string): number | null {
  if (isIP(text) !== 4) return null;
  const parts = text.split('.').map(Number);
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
}

function classifyIpv4(n: number): AddressClass {
  for (const c of IPV4_TABLE) {
    const mask = c.bits === 0 ? 0 : (0xffffffff << (32 - c.bits)) >>> 0;
    if (((n & mask) >>> 0) === ((c.base & mask) >>> 0)) return c.cls;
  }
  return 'public';
}

// ---------------------------------------------------------------------------------------------
// IPv6 (as a 128-bit bigint)

function parseIpv6(text: string): bigint | null {
  // Zone ids (fe80::1%eth0) do not change the class; drop them.
  const pct = text.indexOf('%');
  const s = (pct >= 0 ? text.slice(0, pct) : text).toLowerCase();
  if (isIP(s) !== 6) return null;
  let head = s;
  let tailV4: number | null = null;
  const lastColon = s.lastIndexOf(':');
  if (s.indexOf('.', lastColon) > lastColon) {
    tailV4 = parseDottedQuad(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const groups: number[] = [];
  const dbl = head.indexOf('::');
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  if (dbl >= 0) {
    const left = toGroups(head.slice(0, dbl));
    const right = toGroups(head.slice(dbl + 2));
    groups.push(...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right);
  } else {
    groups.push(...toGroups(head));
  }
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  let v = 0n;
  for (const g of groups) v = (v << 16n) | BigInt(g);
  if (tailV4 !== null) v = (v & ~0xffffffffn) | BigInt(tailV4);
  return v;
}

function formatIpv6(v: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((v >> BigInt(i * 16)) & 0xffffn));
  // Longest run of two or more zero groups becomes "::" (RFC 5952).
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

interface Cidr6 {
  base: bigint;
  bits: number;
  /** A class, or how to find the embedded IPv4 address to classify instead. */
  cls: AddressClass | { embeddedV4Shift: number };
}

function cidr6(text: string, cls: Cidr6['cls']): Cidr6 {
  const [addr, bits] = text.split('/') as [string, string];
  const base = parseIpv6(addr);
  if (base === null) throw new Error(`bad CIDR ${text}`);
  return { base, bits: Number(bits), cls };
}

const ALL_ONES_128 = (1n << 128n) - 1n;

/** Most specific first: the first match wins. Anything outside 2000::/3 that is not listed is reserved. */
const IPV6_TABLE: readonly Cidr6[] = [
  cidr6('::/128', 'unspecified'),
  cidr6('::1/128', 'loopback'),
  cidr6('::ffff:0:0/96', { embeddedV4Shift: 0 }), // IPv4-mapped
  cidr6('64:ff9b::/96', { embeddedV4Shift: 0 }), // NAT64 well-known prefix
  cidr6('64:ff9b:1::/48', 'private'), // NAT64 local-use prefix
  cidr6('::/8', 'reserved'), // IPv4-compatible (deprecated), SIIT ::ffff:0:0:0/96 and other reserved space (after NAT64: 64:ff9b:: lies inside ::/8)
  cidr6('100::/64', 'reserved'), // discard-only
  cidr6('2001:db8::/32', 'reserved'), // documentation
  cidr6('2001::/23', 'reserved'), // IETF protocol assignments: Teredo, ORCHID, benchmarking, ...
  cidr6('2002::/16', { embeddedV4Shift: 80 }), // 6to4: 2002:AABB:CCDD::/48
  cidr6('3fff::/20', 'reserved'), // documentation (RFC 9637)
  cidr6('5f00::/16', 'reserved'), // SRv6 SIDs
  cidr6('fc00::/7', 'private'), // unique local
  cidr6('fe80::/10', 'link-local'),
  cidr6('fec0::/10', 'private'), // site-local (deprecated)
  cidr6('ff00::/8', 'multicast'),
  cidr6('2000::/3', 'public'), // global unicast
];

function classifyIpv6(v: bigint): AddressClass {
  for (const c of IPV6_TABLE) {
    const mask = (ALL_ONES_128 << BigInt(128 - c.bits)) & ALL_ONES_128;
    if ((v & mask) !== (c.base & mask)) continue;
    if (typeof c.cls === 'string') return c.cls;
    return classifyIpv4(Number((v >> BigInt(c.cls.embeddedV4Shift)) & 0xffffffffn));
  }
  return 'reserved';
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * The class of an IP address given as text (dotted-quad IPv4, or IPv6 with or without brackets).
 * Throws a TypeError for anything that is not an IP address.
 */
export function classifyAddress(ip: string): AddressClass {
  const lit = parseIpText(ip);
  if (!lit) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  return lit.family === 4 ? classifyIpv4(parseDottedQuad(lit.address)!) : classifyIpv6(parseIpv6(lit.address)!);
}

/** Only public addresses are allowed; loopback too when `allowLoopback` (the development setting). */
export function isAllowedAddress(ip: string, opts: { allowLoopback: boolean }): boolean {
  let cls: AddressClass;
  try {
    cls = classifyAddress(ip);
  } catch {
    return false;
  }
  return cls === 'public' || (cls === 'loopback' && opts.allowLoopback);
}

/** A canonical text form of an IP address, so two spellings of one address compare equal; null if not an IP. */
export function canonicalAddress(ip: string): string | null {
  return parseIpText(ip)?.address ?? null;
}

/**
 * The address to connect to: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes plain IPv4
 * (same destination, and it works without an IPv6 stack); anything else its canonical form.
 * Null if not an IP address.
 */
export function connectableAddress(ip: string): string | null {
  const lit = parseIpText(ip);
  if (!lit) return null;
  if (lit.family === 6) {
    const v = parseIpv6(lit.address)!;
    if (v >> 32n === 0xffffn) return formatIpv4(Number(v & 0xffffffffn));
  }
  return lit.address;
}

function parseIpText(ip: string): HostLiteral | null {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const v4 = parseDottedQuad(s);
  if (v4 !== null) return { family: 4, address: formatIpv4(v4) };
  const v6 = parseIpv6(s);
  if (v6 !== null) return { family: 6, address: formatIpv6(v6) };
  return null;
}

/**
 * Recognises a URL host that is an IP literal, in every form that WHATWG URL parsing or
 * inet_aton accept: bracketed or bare IPv6, dotted quad, and the legacy IPv4 shorthands
 * (1 to 4 parts, each decimal, octal with a leading 0, or hex with 0x; "127.1", "0x7f.1",
 * "2130706433", "017700000001"), with an optional trailing dot. Returns null for a host name
 * that needs DNS. A numeric-looking host that is not a valid address (out of range) is also
 * reported as null here; URL parsing rejects those before this is reached.
 */
export function parseHostLiteral(host: string): HostLiteral | null {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    if (!h.endsWith(']')) return null;
    const v6 = parseIpv6(h.slice(1, -1));
    return v6 === null ? null : { family: 6, address: formatIpv6(v6) };
  }
  if (h.includes(':')) {
    const v6 = parseIpv6(h);
    return v6 === null ? null : { family: 6, address: formatIpv6(v6) };
  }
  const v4 = parseLegacyIpv4(h);
  return v4 === null ? null : { family: 4, address: formatIpv4(v4) };
}

function parseLegacyIpv4(h: string): number | null {
  const s = h.endsWith('.') ? h.slice(0, -1) : h;
  if (s === '') return null;
  const parts = s.split('.');
  if (parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9][0-9]*$/.test(p)) n = parseInt(p, 10);
    else return null;
    if (!Number.isSafeInteger(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - nums.length)) return null;
  let v = 0;
  nums.forEach((n, i) => {
    v += n * 256 ** (3 - i);
  });
  return v + last;
}
