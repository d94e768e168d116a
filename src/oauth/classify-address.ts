/**
 * Which IP addresses are internal, by their bytes (the SSRF rule 3 of docs/security.md). A text
 * match is not enough: WHATWG URL writes `[::ffff:10.0.0.1]` as `[::ffff:a00:1]`, and an IPv4
 * address also travels inside IPv6 as IPv4-mapped (`::ffff:0:0/96`), IPv4-compatible
 * (`::/96`) and NAT64 (`64:ff9b::/96`; a NAT64 gateway forwards to the IPv4 address in its last
 * 32 bits). Each is unwrapped and its IPv4 address judged; any other form is judged as IPv6.
 * @module
 */
import { isIP } from 'node:net';

/** The 4 bytes of a dotted IPv4 address (validated by `isIP` first). */
const v4Bytes = (ip: string): number[] => ip.split('.').map(Number);

/** The 16 bytes of an IPv6 address (validated by `isIP` first), its zone dropped. */
function v6Bytes(text: string): number[] {
  const ip = text.replace(/%.*$/, '');
  const [head = '', tail] = ip.split('::');
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(group);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(Number.parseInt(group, 16));
    }
    return out;
  };
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function internalV4([a = 0, b = 0]: readonly number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224 // multicast, reserved, broadcast
  );
}

const zeros = (bytes: readonly number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64), or null. */
function embeddedV4(bytes: readonly number[]): number[] | null {
  const last = bytes.slice(12);
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last; // ::ffff:a.b.c.d
  // ::a.b.c.d (deprecated "compatible"); :: and ::1 are judged as IPv6 below.
  if (zeros(bytes, 0, 12) && !zeros(bytes, 12, 15)) return last;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(bytes, 4, 12))
    return last; // 64:ff9b::/96, the NAT64 well-known prefix
  return null;
}

function internalV6(bytes: readonly number[]): boolean {
  const inner = embeddedV4(bytes);
  if (inner) return internalV4(inner);
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes;
  if (zeros(bytes, 0, 15) && (bytes[15] === 0 || bytes[15] === 1)) return true; // :: and ::1
  if (b0 === 0x00 && b1 === 0x64 && b2 === 0xff && b3 === 0x9b && bytes[4] === 0 && bytes[5] === 1) return true; // 64:ff9b:1::/48, local-use NAT64
  return (
    (b0 & 0xfe) === 0xfc || // fc00::/7 unique local
    (b0 === 0xfe && (b1 & 0xc0) === 0x80) || // fe80::/10 link-local
    (b0 === 0xfe && (b1 & 0xc0) === 0xc0) || // fec0::/10 site-local (deprecated, still routed inside)
    b0 === 0xff // multicast
  );
}

/** True for an IP address (either family, any spelling) that is not public; false for a non-address. */
export function isInternalIp(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return internalV4(v4Bytes(ip));
  if (family === 6) return internalV6(v6Bytes(ip));
  return false;
}

/** True for a loopback IP address: 127.0.0.0/8, `::1`, and 127/8 IPv4-mapped (a NAT64 one leaves the host). */
export function isLoopbackIp(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return v4Bytes(ip)[0] === 127;
  if (family !== 6) return false;
  const bytes = v6Bytes(ip);
  if (zeros(bytes, 0, 15) && bytes[15] === 1) return true;
  return zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff && bytes[12] === 127;
}
