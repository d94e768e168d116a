/**
 * `bnity mcp import [--from claude-desktop|cursor|vscode|PATH] [--force] [--keep-secrets-inline]`:
 * add the servers of another MCP client's config file, names kept. A name already configured
 * is skipped and reported, unless `--force` replaces it. Env values whose names look secret
 * go to the keystore, referenced as `${secret:…}` (names said, never values), unless
 * `--keep-secrets-inline`. Through the service when one runs, else into the config file (in
 * cluster mode: a new version of the database's config).
 * @module
 */
import { CLIENT_KINDS, type ClientKind, type ImportResult } from '../config/import-client-config.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** Run `bnity mcp import`. */
export async function mcpImportCommand(
  flags: TargetFlags & { from: string; force?: boolean; keepSecretsInline?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = await resolveTarget(flags, env);
  const io = await import('../config/import-client-config.js');
  const source = (CLIENT_KINDS as readonly string[]).includes(flags.from)
    ? io.clientConfigPath(flags.from as ClientKind, env)
    : flags.from;
  const servers = await io.readClientServers(source);
  const force = flags.force === true;
  const keepSecretsInline = flags.keepSecretsInline === true;
  const { via, value: result } = await serviceOrFile<ImportResult>(
    target,
    () => target.client.request<ImportResult>('POST', '/api/servers/import', { servers, force, keepSecretsInline }),
    async () => {
      const path = target.configPath();
      const { openKeystore } = await import('../storage/keystore.js');
      const keystore = await openKeystore({ home: target.home, env });
      const { targetClusterUrl } = await import('./target-database-url.js');
      const cluster = await targetClusterUrl(target);
      if (cluster === null) {
        const value = await io.importServers(path, servers, { force, env, keystore, keepSecretsInline });
        return { value, note: `imported into ${path} (it applies at the next start)` };
      }
      // Cluster mode (ADR 040): a new version of the database's config, which every replica applies.
      const [{ createDb }, { offlineConfigWriter }, { parseConfig }] = await Promise.all([
        import('../storage/create-db.js'),
        import('./offline-config-writer.js'),
        import('../config/parse-config.js'),
      ]);
      const store = await createDb({ url: cluster });
      try {
        const defaults = { path, config: parseConfig({ mcpServers: {} }, null, env) };
        const { writer } = await offlineConfigWriter(store, defaults, env, keystore);
        const value = await writer.importServers(servers, { force, keepSecretsInline });
        return {
          value,
          note: `imported into config version ${writer.version()} of the database (every replica applies it)`,
        };
      } finally {
        await store.close();
      }
    },
  );
  if (target.json) {
    // The service read no file (the servers were sent inline): the file is the one read here.
    process.stdout.write(`${JSON.stringify({ ...result, from: source, via }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${describeImport(source, Object.keys(servers).length, result)}\n`);
  return 0;
}

/** What happened, in a few lines; says so plainly when nothing was added. */
function describeImport(
  source: string,
  found: number,
  { renamed = [], added, skipped, replaced, movedSecrets = [] }: ImportResult,
): string {
  if (found === 0) return `${source} has no servers: nothing to import`;
  const lines: string[] = [];
  if (renamed.length > 0)
    lines.push(
      `renamed ${renamed.length} (a server name is letters, digits, "_", "." or "-"): ${renamed
        .map(({ from, to }) => `${JSON.stringify(from)} as ${to}`)
        .join(', ')}`,
    );
  if (added.length > 0) lines.push(`added ${added.length}: ${added.join(', ')}`);
  if (replaced.length > 0) lines.push(`replaced ${replaced.length}: ${replaced.join(', ')}`);
  if (movedSecrets.length > 0)
    lines.push(
      `moved ${movedSecrets.length} secret env value${movedSecrets.length === 1 ? '' : 's'} to the keystore (--keep-secrets-inline keeps them in the config): ${movedSecrets
        .map((m) => `${m.server} ${m.variable} as \${secret:${m.credential}}`)
        .join(', ')}`,
    );
  if (skipped.length > 0)
    lines.push(`skipped ${skipped.length} already configured: ${skipped.join(', ')} (--force replaces them)`);
  if (added.length === 0 && replaced.length === 0)
    lines.unshift(`nothing added: every server of ${source} is already configured`);
  return lines.join('\n');
}
