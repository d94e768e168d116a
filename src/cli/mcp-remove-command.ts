/**
 * `bnity mcp remove NAME`: remove a server through the running service (it stops at once),
 * or from the config file when no service runs, saying so.
 * @module
 */
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** Run `bnity mcp remove NAME`. */
export async function mcpRemoveCommand(name: string, flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const { via } = await serviceOrFile(
    target,
    () => target.client.request('DELETE', `/api/servers/${encodeURIComponent(name)}`),
    async () => {
      const path = target.configPath();
      const { editConfigFile } = await import('../config/edit-config.js');
      await editConfigFile(path, (doc) => doc.removeServer(name), { env });
      return { value: undefined, note: `removed "${name}" from ${path} (it applies at the next start)` };
    },
  );
  if (target.json) process.stdout.write(`${JSON.stringify({ name, via, removed: true }, null, 2)}\n`);
  else process.stdout.write(`removed server "${name}"\n`);
  return 0;
}
