/**
 * A stdio child's stdout read the way Node's HTTP server reads a request (issue 20): into
 * one reused buffer, handed to us by a direct callback. Node reads the pipes it makes for a
 * child through a Readable: a fresh 64 KiB buffer for every read, then `push`, `emit('data')`
 * and a `nextTick` for each chunk. Here the child's fd 1 is one end of a Unix socket pair
 * we connected ourselves (the same kind of socket libuv makes for a `'pipe'`), and ours is a
 * `net.Socket` with `onread`: a 64 KiB answer arrives in one read instead of two, with
 * nothing allocated (docs/adr/055-stdout-read-into-one-buffer.md).
 *
 * The pair is connected through a listening socket in a fresh directory only we can enter
 * (`mkdtemp`: mode 0700), removed once connected. Where that cannot be done (Windows, a
 * temporary directory without room for a socket path) the caller falls back to Node's pipe.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The one buffer every child's stdout is read into. Reads are delivered one at a time on the
 * main thread and each is consumed before the next, so one buffer serves every child; what a
 * reader keeps past its call it copies. Its pages are touched only as far as a read reaches.
 */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** A connected pair: `ours` reads, `theirs` is handed to the child as its stdout, then closed here. */
export type StdoutSocket = {
  readonly ours: Socket;
  readonly theirs: Socket;
};

/**
 * A socket pair whose reading end calls `onData` with each read: a view of the shared buffer,
 * valid only during the call. Null where no pair can be made (the caller uses a pipe).
 */
export async function openStdoutSocket(onData: (chunk: Buffer) => void): Promise<StdoutSocket | null> {
  if (process.platform === 'win32') return null;
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'bnity-stdout-'));
  } catch {
    return null;
  }
  const server = createServer({ pauseOnConnect: true });
  const made: Socket[] = [];
  try {
    const path = join(dir, 'out');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
    const accepted = new Promise<Socket>((resolve) =>
      server.once('connection', (socket: Socket) => {
        made.push(socket);
        resolve(socket);
      }),
    );
    const ours = connect({
      path,
      onread: {
        buffer: READ_BUFFER,
        // `true`: go on reading (false would pause the socket).
        callback: (bytes) => {
          onData(READ_BUFFER.subarray(0, bytes));
          return true;
        },
      },
    });
    made.push(ours);
    const connected = new Promise<void>((resolve, reject) => {
      ours.once('error', reject);
      ours.once('connect', () => {
        ours.off('error', reject);
        resolve();
      });
    });
    const [theirs] = await Promise.all([accepted, connected]);
    return { ours, theirs };
  } catch {
    for (const socket of made) socket.destroy();
    return null;
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
