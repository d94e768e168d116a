// Harness-only preload (`node --expose-gc --import <this> bin/bnity.js serve`): a loopback
// port, CHAOS_DEBUG_PORT, that answers GET /heap with heap figures after a forced GC, and
// GET /loop with the event loop's delay (ms) since the last GET /loop. It is never part of
// the service: only the chaos and soak harness starts the service with it.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const port = Number(process.env.CHAOS_DEBUG_PORT);
if (port > 0) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const server = createServer((req, res) => {
    if (req.url === '/loop') {
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      const figures = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
      delay.reset();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(figures));
      return;
    }
    if (req.url !== '/heap' || typeof globalThis.gc !== 'function') {
      res.writeHead(404).end();
      return;
    }
    // Two passes: the first may only queue finalizers whose objects the second frees.
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external }));
  });
  server.listen(port, '127.0.0.1');
  // Never the reason the service stays up.
  server.unref();
}
