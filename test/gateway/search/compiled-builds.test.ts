import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SEARCH = join(ROOT, 'src', 'gateway', 'search');
const BUILDS = join(ROOT, 'test', 'support', 'tool-index-builds.ts');

/** The names of the functions declared in src/gateway/search/. */
function searchFunctions(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(SEARCH).filter((f) => f.endsWith('.ts')))
    for (const [, name] of readFileSync(join(SEARCH, file), 'utf8').matchAll(/function (\w+)/gu))
      names.add(name as string);
  return names;
}

/** What `node args…` printed on stdout, once it exited (it must exit 0). */
function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out).toString('utf8'))
        : reject(new Error(`exit ${code}: ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`)),
    );
  });
}

describe('building indexes one after the other', () => {
  it('throws no compiled index code away once warm, a full collection before each build and no index alive across it', async () => {
    // ADR 038, "Revised a fourth time": an index's hidden classes died with it at each
    // collection, so every build after one threw the compiled scan, counting and postings
    // away ("weak objects", "code dependencies": about 50 a bench run) and compiled them again.
    const trace = await run(['--expose-gc', '--trace-deopt', '--import', 'tsx', BUILDS]);
    expect(trace).toContain('built 8');
    const ours = searchFunctions();
    expect(ours.has('scanWords')).toBe(true);
    const thrown: string[] = [];
    let build = -1;
    for (const line of trace.split('\n')) {
      const started = /^build (\d+)$/u.exec(line);
      if (started) build = Number(started[1]);
      // The first builds compile as they go, and may throw away code compiled before a path had run.
      if (build < 3) continue;
      // "[bailout (kind: …, reason: R): begin. deoptimizing … <JSFunction NAME (sfi …" or
      // "[marking dependent code … (<SharedFunctionInfo NAME>) … for deoptimization, reason: R]".
      const bailout = /reason: ([^)]*)\): begin\. deoptimizing \S* ?<JSFunction (\w+)/u.exec(line);
      const marked = /<SharedFunctionInfo (\w+)>.* for deoptimization, reason: ([^\]]*)\]/u.exec(line);
      const [name, reason] = bailout ? [bailout[2], bailout[1]] : marked ? [marked[1], marked[2]] : [];
      if (name && ours.has(name)) thrown.push(`build ${build}: ${name} (${reason})`);
    }
    expect(thrown).toEqual([]);
  }, 60_000);
});
