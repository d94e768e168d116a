/**
 * A failed connect told in one line, and the remote transports' error classes kept out of a
 * stdio start: `describeConnectError` knows no SDK client class, `describeRemoteError` tells it
 * what they say, and the modules a stdio upstream opens through never load them (issue 20: the
 * SDK's HTTP and SSE clients and OAuth's schemas were a tenth of the time to first call).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { connectFailed, describeConnectError } from '../../src/upstream/connect-error.js';
import { describeRemoteError } from '../../src/upstream/create-transport.js';
import { importsOf, staticReach } from '../support/import-arrows.js';

const URL_WITH_SECRET = 'http://127.0.0.1:9/mcp?token=s3cret-value';
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', syscall: 'connect' });

describe('describeRemoteError', () => {
  it("says a Streamable HTTP answer's status and the masked URL", () => {
    const line = describeRemoteError(new StreamableHTTPError(404, 'Not Found'), URL_WITH_SECRET);
    expect(line).toMatch(/^HTTP 404 from http:\/\/127\.0\.0\.1:9\/mcp\?token=\*+$/);
    expect(line).not.toContain('s3cret');
  });

  it("says an SSE answer's status, and names the URL when the SSE client got no answer at all", () => {
    expect(describeRemoteError(new SseError(401, 'Unauthorized', {} as never), URL_WITH_SECRET)).toMatch(
      /^HTTP 401 from http:\/\/127\.0\.0\.1:9\/mcp\?token=\*+$/,
    );
    const silent = describeRemoteError(new SseError(undefined, 'terminated', {} as never), URL_WITH_SECRET);
    expect(silent).toMatch(/^terminated \(http:\/\/127\.0\.0\.1:9\/mcp\?token=\*+\)$/);
  });

  it('says "upstream" for a status when no URL is given', () => {
    expect(describeRemoteError(new StreamableHTTPError(503, 'Service Unavailable'))).toBe('HTTP 503 from upstream');
  });
});

describe('describeConnectError', () => {
  it("keeps a HubError's own message, and a plain error's", () => {
    expect(describeConnectError(connectFailed('spawn /nope ENOENT'))).toBe('spawn /nope ENOENT');
    expect(describeConnectError(new Error('bad handshake'))).toBe('bad handshake');
    expect(describeConnectError('not an error')).toBe('not an error');
  });

  it('adds the masked URL to a network failure only', () => {
    expect(describeConnectError(refused(), { url: URL_WITH_SECRET })).toMatch(
      /^connect ECONNREFUSED 127\.0\.0\.1:9 \(http:\/\/127\.0\.0\.1:9\/mcp\?token=\*+\)$/,
    );
    expect(describeConnectError(new Error('bad handshake'), { url: URL_WITH_SECRET })).toBe('bad handshake');
  });

  it('reads an SDK HTTP error as a plain one when nothing tells it the status', () => {
    // The stdio path never meets one; a remote caller goes through describeRemoteError.
    expect(describeConnectError(new StreamableHTTPError(404, 'Not Found'))).toBe('Streamable HTTP error: Not Found');
  });
});

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe("a stdio upstream's modules", () => {
  const REMOTE = [
    '@modelcontextprotocol/sdk/client/sse.js',
    '@modelcontextprotocol/sdk/client/streamableHttp.js',
    '@modelcontextprotocol/sdk/client/auth.js',
  ];

  it("load none of the SDK's HTTP, SSE or OAuth clients", () => {
    const { files, packages } = staticReach(root, 'src/upstream/open-upstream.ts');
    expect(files.has('src/upstream/stdio-session.ts')).toBe(true);
    expect(files.has('src/upstream/remote-session.ts')).toBe(false);
    expect([...packages].filter((p) => REMOTE.includes(p))).toEqual([]);
  });

  it('load the remote session when a remote server opens (the check above can see one)', () => {
    expect(importsOf(readFileSync(join(root, 'src/upstream/open-upstream.ts'), 'utf8'))).toContain(
      './remote-session.js',
    );
    expect([...staticReach(root, 'src/upstream/remote-session.ts').packages].filter((p) => REMOTE.includes(p))).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/sdk/client/sse.js']),
    );
  });
});
