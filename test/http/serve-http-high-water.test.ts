/**
 * The service's connections write an answer of up to 256 KiB without the socket asking to be
 * drained (issue 20): at Node's default mark (16 KiB) every long answer — a 64 KiB tool result —
 * set `needDrain` and emitted a `drain` no one waited for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, listenHttp, SOCKET_HIGH_WATER_MARK } from '../../src/http/serve-http.js';

let http: HttpServer | null = null;
afterEach(async () => {
  await http?.close();
  http = null;
});

describe('the service’s HTTP connections', () => {
  it('write a 64 KiB answer at once, with no drain asked for, and still a longer one whole', async () => {
    http = await listenHttp({ host: '127.0.0.1', port: 0 });
    const seen: { mark: number; needDrain: boolean; drains: number }[] = [];
    http.handle((req, res) => {
      const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes'));
      const record = { mark: res.writableHighWaterMark, needDrain: false, drains: 0 };
      res.socket?.on('drain', () => {
        record.drains += 1;
      });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      res.end(Buffer.alloc(size, 0x61));
      // The socket's own: the response's turns false once it has ended.
      record.needDrain = res.socket?.writableNeedDrain ?? false;
      seen.push(record);
    });
    const long = await fetch(`${http.url}/?bytes=${64 * 1024}`);
    expect((await long.arrayBuffer()).byteLength).toBe(64 * 1024);
    // Over the mark: backpressure as before, and the answer arrives whole.
    const longer = await fetch(`${http.url}/?bytes=${SOCKET_HIGH_WATER_MARK + 1}`);
    expect((await longer.arrayBuffer()).byteLength).toBe(SOCKET_HIGH_WATER_MARK + 1);
    expect(seen[0]).toEqual({ mark: SOCKET_HIGH_WATER_MARK, needDrain: false, drains: 0 });
    expect(seen[1]?.needDrain).toBe(true);
  });
});
