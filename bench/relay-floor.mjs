#!/usr/bin/env node
// The floor of a stdio relay (issue 20): what an HTTP-to-stdio relay costs when it does
// nothing but move lines. Not a gateway and not MCP-aware: one client, the client's JSON-RPC
// ids passed through unchanged, no session, no checks, no sanitizer, no audit. A POST's body
// goes to the stdio upstream as one line; the upstream's answer line with the same id is
// written back as `application/json`, its bytes as they were read (no decoding, no copy but
// the one that joins a line read in pieces). Notifications get 202, other methods 405.
//
// `npm run bench:gateway` with FLOOR=1 adds it to the shared harness as the target
// `relay-floor`, in the same run and rounds as boternity and the peers, so a run tells how
// much of a gateway's overhead is the hop through a stdio child and how much its own work.
//
// node bench/relay-floor.mjs PORT UPSTREAM [ARGS…]   (UPSTREAM: the stdio server's script, run with this node)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const [port, upstream, ...args] = process.argv.slice(2);
if (!Number.isInteger(Number(port)) || !upstream) {
  console.error('usage: node bench/relay-floor.mjs PORT UPSTREAM_SCRIPT [ARGS…]');
  process.exit(2);
}

const child = spawn(process.execPath, [upstream, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => {
  console.error(`relay-floor: the upstream exited (${code})`);
  process.exit(1);
});

/** Answers awaited, by the JSON text of their id. */
const waiting = new Map();
/** An id near a line's start or end: the SDK writes `id` first or last. */
const ID = /"id":("(?:[^"\\]|\\.)*"|-?\d+)/;
const NEWLINE = 0x0a;
const EDGE = 96;

/** The id of an answer line, from its first or last bytes only (a 64 KiB result is not read). */
function idOf(line) {
  const head = ID.exec(line.toString('latin1', 0, Math.min(line.length, EDGE)));
  if (head) return head[1];
  const tail = ID.exec(line.toString('latin1', Math.max(0, line.length - EDGE)));
  return tail ? tail[1] : null;
}

let pieces = [];
child.stdout.on('data', (chunk) => {
  let from = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
    pieces.push(chunk.subarray(from, at));
    from = at + 1;
    const line = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    pieces = [];
    const id = idOf(line);
    const answer = id === null ? undefined : waiting.get(id);
    if (answer) {
      waiting.delete(id);
      answer(line);
    }
  }
  if (from < chunk.length) pieces.push(chunk.subarray(from));
});

createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    let message;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (message.id === undefined) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      res.writeHead(202).end();
      return;
    }
    waiting.set(JSON.stringify(message.id), (line) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'mcp-session-id': 'relay-floor',
          'content-length': line.length,
        })
        .end(line),
    );
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}).listen(Number(port), '127.0.0.1');
