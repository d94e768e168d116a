// BIG_BODIES (default 10) initialize requests of BIG_MB (default 20) MB each, sent to /mcp at
// once, half with a Content-Length, half chunked: what each gets, how much of its body was
// written before the answer, and the service's memory (issue 11: 185 → 754 MB before the
// /mcp body limit of issue 8).
import { request } from 'node:http';
import { mb, round, stdioServer, TINY, within } from '../harness.mjs';

const COUNT = Number(process.env.BIG_BODIES ?? 10);
const MEGABYTES = Number(process.env.BIG_MB ?? 20);

/** POST one big initialize, a megabyte at a time; resolves with the status and megabytes written. */
function postBig(url, auth, declared) {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  const head = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"';
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(`${url}/mcp`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(declared ? { 'content-length': String(head.length + MEGABYTES * chunk.length + 3) } : {}),
      },
    });
    let sent = 0;
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, writtenMb: sent, ms: round(performance.now() - started) });
    };
    req.on('response', (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on('error', () => finish(0));
    const write = () => {
      while (sent < MEGABYTES && !done) {
        sent += 1;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!done) req.end('"}}');
    };
    req.write(head);
    write();
  });
}

export default {
  name: 'big-bodies',
  what: `${COUNT} initialize bodies of ${MEGABYTES} MB each sent to /mcp at once`,
  timeoutMs: 120_000,
  async run({ start }) {
    const service = await start((marker) => ({ mcpServers: { ok: stdioServer(TINY, marker) } }));
    const heapBefore = (await service.heap()).heapUsed;
    const rssBefore = service.rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, service.rssMb() ?? 0);
    }, 20);
    const results = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => postBig(service.url, service.auth, i % 2 === 0)),
    );
    clearInterval(sampler);
    const heapAfter = await within(service.heap(), 30_000);
    const rssAfter = service.rssMb();
    const stopped = await service.stop();
    return {
      statuses: Object.fromEntries(
        [...new Set(results.map((r) => r.status))].map((s) => [s, results.filter((r) => r.status === s).length]),
      ),
      writtenMb: results.map((r) => r.writtenMb),
      answeredMs: results.map((r) => r.ms),
      rssMb: { before: rssBefore, peak: rssPeak, after: rssAfter },
      heapMb: { before: mb(heapBefore), after: heapAfter.value ? mb(heapAfter.value.heapUsed) : null },
      stop: stopped,
    };
  },
};
