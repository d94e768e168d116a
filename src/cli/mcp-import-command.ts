/**
 * `bnity mcp import [--from claude-desktop|cursor|vscode|PATH] [--force]`: add the servers of
 * another MCP client's config file, names kept. A name already configured is skipped and
 * reported, unless `--force` replaces it. Through the service when one runs, else into the
 * config file.
 * @module
 */
import { CLIENT_KINDS, type ClientKind, type ImportResult } from '../config/import-client-config.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** Run `bnity mcp import`. */
export async function mcpImportCommand(
  flags: TargetFlags & { from: string; force?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = await resolveTarget(flags, env);
  const io = await import('../config/import-client-config.js');
  const source = (CLIENT_KINDS as readonly string[]).includes(flags.from)
    ? io.clientConfigPath(flags.from as ClientKind, env)
    : flags.from;
  const servers = await io.readClientServers(source);
  const force = flags.force === true;
  const { via, value: result } = await serviceOrFile<ImportResult>(
    target,
    () => target.client.request<ImportResult>('POST', '/api/servers/import', { servers, force }),
    async () => {
      const path = target.configPath();
      const value = await io.importServers(path, servers, { force, env });
      return { value, note: `imported into ${path} (it applies at the next start)` };
    },
  );
  if (target.json) {
    process.stdout.write(`${JSON.stringify({ from: source, via, ...result }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${describeImport(source, Object.keys(servers).length, result)}\n`);
  return 0;
}

/** What happened, in a few lines; says so plainly when nothing was added. */
function describeImport(source: string, found: number, { added, skipped, replaced }: ImportResult): string {
  if (found === 0) return `${source} has no servers: nothing to import`;
  const lines: string[] = [];
  if (added.length > 0) lines.push(`added ${added.length}: ${added.join(', ')}`);
  if (replaced.length > 0) lines.push(`replaced ${replaced.length}: ${replaced.join(', ')}`);
  if (skipped.length > 0)
    lines.push(`skipped ${skipped.length} already configured: ${skipped.join(', ')} (--force replaces them)`);
  if (added.length === 0 && replaced.length === 0)
    lines.unshift(`nothing added: every server of ${source} is already configured`);
  return lines.join('\n');
}
