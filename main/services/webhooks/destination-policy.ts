/**
 * Which addresses a webhook may be delivered to (issue 29). A webhook is a request the server makes
 * on an account's behalf, so without a policy any key holder could make it reach the cloud metadata
 * service, the clinic's private network or the machine itself. Everything that is not a public
 * unicast address is refused unless the operator allows it (CLINDOC_WEBHOOK_ALLOW).
 *
 * Pure: addresses arrive as the text the resolver (or the URL parser, which writes decimal, hex,
 * octal and short IPv4 forms as dotted quads) gives; the I/O lives in main/jobs/webhook-destination.ts.
 */

/** An address as a number, with its family: IPv4 in 32 bits, IPv6 in 128. */
interface Ip { family: 4 | 6; value: bigint }

interface Range { family: 4 | 6; base: bigint; bits: number }

/** A special-purpose range and why it is refused. */
interface Reserved extends Range { reason: string }

/** Parses a dotted-quad IPv4 address (exactly four decimal parts). */
function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

/** Parses an IPv6 address (with `::` and an embedded IPv4 tail; no zone). */
function parseV6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || (text.match(/::/g) ?? []).length > 1) return undefined;
  let groups: string[];
  const tail = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let head = text;
  const extra: bigint[] = [];
  if (tail) {
    const v4 = parseV4(tail[1]!);
    if (v4 === undefined) return undefined;
    extra.push(v4 >> 16n, v4 & 0xffffn);
    head = text.slice(0, text.length - tail[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const want = 8 - extra.length;
  if (head.includes('::')) {
    const [left, right] = head.split('::') as [string, string];
    const l = left ? left.split(':') : [];
    const r = right ? right.split(':') : [];
    if (l.length + r.length >= want) return undefined;
    groups = [...l, ...Array<string>(want - l.length - r.length).fill('0'), ...r];
  } else {
    groups = head ? head.split(':') : [];
  }
  if (groups.length !== want) return undefined;
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  for (const e of extra) value = (value << 16n) | e;
  return value;
}

/** Parses an address literal as written in a URL (`[...]` around IPv6 is accepted); undefined for a host name. */
export function parseIp(text: string): Ip | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseV4(bare);
  if (v4 !== undefined) return { family: 4, value: v4 };
  if (!bare.includes(':')) return undefined;
  const v6 = parseV6(bare);
  return v6 === undefined ? undefined : { family: 6, value: v6 };
}

function parseRange(text: string): Range | undefined {
  const [address, length, more] = text.split('/');
  if (more !== undefined || !address) return undefined;
  const ip = parseIp(address);
  if (!ip) return undefined;
  const width = ip.family === 4 ? 32 : 128;
  const bits = length === undefined ? width : /^\d{1,3}$/.test(length) ? Number(length) : NaN;
  if (!(bits >= 0 && bits <= width)) return undefined;
  const shift = BigInt(width - bits);
  return { family: ip.family, base: (ip.value >> shift) << shift, bits };
}

function inRange(ip: Ip, range: Range): boolean {
  if (ip.family !== range.family) return false;
  const shift = BigInt((ip.family === 4 ? 32 : 128) - range.bits);
  return ip.value >> shift === range.base >> shift;
}

const reserved = (cidr: string, reason: string): Reserved => ({ ...parseRange(cidr)!, reason });

/** Cloud metadata services: named on their own so the refusal says what was at stake. */
const METADATA = [reserved('169.254.169.254/32', 'a cloud metadata address'), reserved('fd00:ec2::254/128', 'a cloud metadata address')];
const LOOPBACK = [reserved('127.0.0.0/8', 'a loopback address'), reserved('::1/128', 'a loopback address')];

/** IANA special-purpose ranges (RFC 6890 and successors); the first that holds an address names it. */
const RESERVED: readonly Reserved[] = [
  ...METADATA,
  ...LOOPBACK,
  reserved('0.0.0.0/8', 'an unspecified ("this network") address'),
  reserved('10.0.0.0/8', 'a private address'),
  reserved('172.16.0.0/12', 'a private address'),
  reserved('192.168.0.0/16', 'a private address'),
  reserved('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  reserved('169.254.0.0/16', 'a link-local address'),
  reserved('192.0.0.0/24', 'an IETF protocol address'),
  reserved('192.0.2.0/24', 'a documentation address'),
  reserved('198.51.100.0/24', 'a documentation address'),
  reserved('203.0.113.0/24', 'a documentation address'),
  reserved('198.18.0.0/15', 'a benchmarking address'),
  reserved('224.0.0.0/4', 'a multicast address'),
  reserved('240.0.0.0/4', 'a reserved address'),
  reserved('::/128', 'an unspecified address'),
  reserved('::ffff:0:0/96', 'an IPv4-mapped IPv6 address'),
  reserved('::/96', 'an IPv4-compatible IPv6 address'),
  reserved('64:ff9b::/96', 'a NAT64 address'),
  reserved('64:ff9b:1::/48', 'a NAT64 address'),
  reserved('100::/64', 'a discard address'),
  reserved('2001::/32', 'a Teredo tunnel address'),
  reserved('2001:db8::/32', 'a documentation address'),
  reserved('2002::/16', 'a 6to4 address'),
  reserved('fc00::/7', 'a unique-local address'),
  reserved('fe80::/10', 'a link-local address'),
  reserved('fec0::/10', 'a site-local address'),
  reserved('ff00::/8', 'a multicast address'),
];

/** IPv6's global unicast space: anything outside it that no range above names (::ffff:0:a.b.c.d, say) is refused too. */
const GLOBAL_UNICAST_V6 = parseRange('2000::/3')!;

/** The operator's exceptions (CLINDOC_WEBHOOK_ALLOW). */
export interface WebhookAllowList {
  /** `loopback`: 127.0.0.0/8 and ::1, for an integration on the same computer. */
  loopback: boolean;
  /** CIDR ranges (or single addresses), e.g. a clinic's 10.20.0.0/16. */
  ranges: readonly Range[];
}

/** The words CLINDOC_WEBHOOK_ALLOW takes besides CIDR ranges. */
export const WEBHOOK_ALLOW_WORDS = ['loopback'] as const;

/**
 * Parses CLINDOC_WEBHOOK_ALLOW's entries: `loopback` or a CIDR range / single address.
 * Throws an Error naming the first entry that is neither.
 */
export function parseWebhookAllow(entries: readonly string[]): WebhookAllowList {
  const ranges: Range[] = [];
  let loopback = false;
  for (const entry of entries) {
    if (entry === 'loopback') {
      loopback = true;
      continue;
    }
    const range = parseRange(entry);
    if (!range) throw new Error(`"${entry}" is not loopback, an address or a CIDR range such as 10.20.0.0/16`);
    ranges.push(range);
  }
  return { loopback, ranges };
}

/**
 * Why a webhook may not be delivered to `address` (an address literal), or undefined when it may.
 * A public unicast address always may; a special-purpose one only when the allow list names it
 * (`loopback`, or a range that holds it). IPv4-mapped and other IPv4-embedding IPv6 forms are
 * refused as such: allowing 127.0.0.1 does not allow ::ffff:127.0.0.1 unless a range names it.
 */
export function refusedAddress(address: string, allow: WebhookAllowList): string | undefined {
  const ip = parseIp(address);
  if (!ip) return 'not an IP address';
  if (allow.ranges.some((r) => inRange(ip, r))) return undefined;
  const hit = RESERVED.find((r) => inRange(ip, r));
  if (allow.loopback && LOOPBACK.some((r) => inRange(ip, r))) return undefined;
  if (hit) return hit.reason;
  return ip.family === 6 && !inRange(ip, GLOBAL_UNICAST_V6) ? 'not a global unicast IPv6 address' : undefined;
}

/** Whether an address literal is a loopback address (127.0.0.0/8 or ::1); plain http is delivered only there. */
export function isLoopbackAddress(address: string): boolean {
  const ip = parseIp(address);
  return ip !== undefined && LOOPBACK.some((r) => inRange(ip, r));
}
