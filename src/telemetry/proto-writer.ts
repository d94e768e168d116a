/**
 * A protobuf writer for OTLP spans (issue 21, ADR 035 "Revised"): one buffer kept across
 * spans and batches, strings and hex ids written by `Buffer.write` (native), lengths found
 * after the fact. The OpenTelemetry transformer's writer sizes each request in a first pass,
 * allocates a buffer, a `TextEncoder` and a `DataView` per request and encodes strings in
 * JavaScript; for spans encoded one by one as they end that was most of tracing's cost.
 *
 * A length-delimited field reserves room for its length, writes its content, then writes the
 * length, moving the content when the length took more or fewer bytes than reserved (rare:
 * the reservation is sized for the common case).
 * @module
 */

/** Wire types. */
const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

export { FIXED32, FIXED64, LEN, VARINT };

/** Bytes a varint of `value` (an unsigned 32-bit integer) takes. */
export const varintSize = (value: number): number =>
  value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;

/** The writer: `bytes()` is what was written since the last `reset()`. */
export class ProtoWriter {
  #buf: Buffer;
  pos = 0;

  constructor(size = 16 * 1024) {
    this.#buf = Buffer.allocUnsafe(size);
  }

  /** Room for `more` bytes after `pos`. */
  #room(more: number): void {
    const needed = this.pos + more;
    if (needed <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.#buf.copy(grown, 0, 0, this.pos);
    this.#buf = grown;
  }

  /** Bytes as they are (no length before them). */
  raw(value: Uint8Array): void {
    this.#room(value.length);
    this.#buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** What this writer holds, appended to `other` as it is. */
  appendTo(other: ProtoWriter): void {
    other.raw(this.#buf.subarray(0, this.pos));
  }

  /** What was written, without a copy: for a writer sized to its content and then dropped. */
  take(): Buffer {
    return this.#buf.subarray(0, this.pos);
  }

  /** A copy of what was written from `start` (the buffer is reused). */
  copy(start = 0): Buffer {
    // One allocation (from Node's pool when small), not a view and then a copy of it.
    const out = Buffer.allocUnsafe(this.pos - start);
    this.#buf.copy(out, 0, start, this.pos);
    return out;
  }

  reset(): void {
    this.pos = 0;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** An unsigned 32-bit varint. */
  varint(value: number): void {
    this.#room(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.#buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buf[this.pos++] = v;
  }

  /** A signed 64-bit integer as a varint (two's complement for negatives: 10 bytes). */
  int64(value: number): void {
    if (value >= 0 && value <= 0xffffffff) {
      this.varint(value);
      return;
    }
    this.#room(10);
    let big = BigInt.asUintN(64, BigInt(value));
    while (big > 0x7fn) {
      this.#buf[this.pos++] = Number(big & 0x7fn) | 0x80;
      big >>= 7n;
    }
    this.#buf[this.pos++] = Number(big);
  }

  fixed32(value: number): void {
    this.#room(4);
    this.#buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** An `HrTime` ([seconds, nanoseconds]) as fixed64 nanoseconds, without a BigInt. */
  hrTime(time: readonly [number, number]): void {
    this.#room(8);
    const [seconds, nanos] = time;
    // seconds · 10⁹ + nanos as two 32-bit halves, every product kept below 2⁵³: the seconds'
    // low 16 bits and the rest are multiplied apart (as the OTLP transformer does it).
    const lowPart = (seconds & 0xffff) * 1e9;
    const highPart = Math.floor(seconds / 0x10000) * 1e9;
    const lowWithCarry = (lowPart >>> 0) + (((highPart & 0xffff) * 0x10000) >>> 0) + nanos;
    const high =
      (Math.floor(lowPart / 0x100000000) + ((highPart / 0x10000) >>> 0) + Math.floor(lowWithCarry / 0x100000000)) >>> 0;
    this.#buf.writeUInt32LE(lowWithCarry >>> 0, this.pos);
    this.#buf.writeUInt32LE(high, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.#room(8);
    this.#buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A string field's length and bytes. */
  string(value: string): void {
    if (value.length < 0x80 && this.#ascii(value)) return;
    const most = value.length * 3;
    const reserved = varintSize(most);
    this.#room(reserved + most);
    const written = this.#buf.write(value, this.pos + reserved, 'utf8');
    this.#length(this.pos, reserved, written);
  }

  /** Hex text (a trace or span id) as its bytes, with their length. */
  hex(value: string): void {
    const bytes = value.length >>> 1;
    this.#room(1 + bytes);
    const buf = this.#buf;
    buf[this.pos] = bytes;
    // By hand: a span's two or three ids are 8 or 16 bytes, cheaper in a loop than through
    // Buffer.write's native call (which also stops at the first bad digit; ids are checked
    // valid before they get here).
    for (let i = 0, at = this.pos + 1; i < bytes; i++, at++)
      buf[at] = (hexDigit(value.charCodeAt(2 * i)) << 4) | hexDigit(value.charCodeAt(2 * i + 1));
    this.pos += 1 + bytes;
  }

  /**
   * A short string that is all ASCII, written by a loop (most keys and values of a span:
   * cheaper than Buffer.write's native call); false, and nothing written, at its first other
   * character.
   */
  #ascii(value: string): boolean {
    const length = value.length;
    this.#room(1 + length);
    const buf = this.#buf;
    const start = this.pos + 1;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) return false;
      buf[start + i] = code;
    }
    buf[this.pos] = length;
    this.pos = start + length;
    return true;
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.#room(value.length);
    this.#buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Begin a length-delimited message; its content follows; {@link end} with what this returns. */
  begin(reserved = 1): number {
    this.#room(reserved);
    const at = this.pos;
    this.pos += reserved;
    return at * 8 + reserved;
  }

  /** End the message {@link begin} began. */
  end(mark: number): void {
    const at = Math.floor(mark / 8);
    const reserved = mark % 8;
    this.#length(at, reserved, this.pos - at - reserved);
  }

  /** Write `length` at `at`, where `reserved` bytes were kept for it, and put `pos` after the content. */
  #length(at: number, reserved: number, length: number): void {
    const size = varintSize(length);
    const content = at + reserved;
    if (size !== reserved) {
      this.#room(size - reserved);
      this.#buf.copyWithin(at + size, content, content + length);
    }
    let v = length;
    let i = at;
    while (v > 0x7f) {
      this.#buf[i++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buf[i] = v;
    this.pos = at + size + length;
  }
}

/** The value of a hex digit's character code (0–9, a–f, A–F). */
function hexDigit(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}
