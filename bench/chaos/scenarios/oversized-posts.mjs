// 30 oversized POSTs one after another (5, 12 and 40 MB in turn, with a Content-Length) to
// /mcp and to /api/servers: how many clients read the 413 and its message, and what the
// others saw (issue 18 item 5: 4 of 30 on the probe's machine, 15–18 and 23–26 of 30 before
// the refusal lingered; 30 of 30 after).
import { request } from 'node:http';
import { stdioServer, TINY } from '../harness.mjs';

const SIZES_MB = [5, 12, 40];
const COUNT = Number(process.env.OVERSIZED_POSTS ?? 30);

/** POST `mb` megabytes of JSON; whether the client read a 413 with a body, or what it met instead. */
function postOversized(url, auth, path, mb) {
  const body = Buffer.alloc(mb * 1024 * 1024, 'a');
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': String(body.length),
      },
    });
    let status = 0;
    let text = '';
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve(status === 413 && text.length > 0 ? { ok: true, text } : { ok: false, met: status }));
      res.on('error', (e) => resolve({ ok: false, met: `response ${e.code ?? e.message}` }));
    });
    req.on('error', (e) => {
      if (!status) resolve({ ok: false, met: e.code ?? e.message });
    });
    req.on('socket', (s) => s.on('error', () => {}));
    req.end(body);
  });
}

export default {
  name: 'oversized-posts',
  what: `${COUNT} POSTs of 5, 12 and 40 MB to /mcp and to /api/servers, one after another`,
  timeoutMs: 300_000,
  async run({ start }) {
    const service = await start((marker) => ({ mcpServers: { ok: stdioServer(TINY, marker) } }));
    const result = {};
    for (const path of ['/mcp', '/api/servers']) {
      let read = 0;
      const met = {};
      let message = null;
      for (let i = 0; i < COUNT; i++) {
        const r = await postOversized(service.url, service.auth, path, SIZES_MB[i % SIZES_MB.length]);
        if (r.ok) {
          read += 1;
          message ??= r.text.slice(0, 160);
        } else met[r.met] = (met[r.met] ?? 0) + 1;
      }
      result[path] = { readThe413: `${read} of ${COUNT}`, met, message };
    }
    result.stop = await service.stop();
    return result;
  },
};
