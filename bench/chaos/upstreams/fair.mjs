// The fairness scenario's upstream: `echo` (answers its text) and `size` (answers its
// text's length), over stdio, or over Streamable HTTP with `--http=PORT` (127.0.0.1, one
// session per client). Nothing bad on purpose: it is only as fast as one process is.
import { serveStreamableHttp } from '../../../test/support/serve-streamable-http.mjs';
import { createEchoServer } from './echo-server.mjs';

const tools = {
  size: { description: 'Answers the length of its text', run: (args) => String(args?.text?.length ?? 0) },
};
const port = process.argv.find((a) => a.startsWith('--http='))?.slice('--http='.length);

if (port === undefined) {
  await createEchoServer({ name: 'fair', tools }).connect();
} else {
  serveStreamableHttp({ port: Number(port), newSession: () => createEchoServer({ name: 'fair-http', tools }) });
}
