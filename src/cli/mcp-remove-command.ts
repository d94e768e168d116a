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
      const { editDesiredConfig } = await import('./edit-desired-config.js');
      const where = await editDesiredConfig(target, (doc) => doc.removeServer(name));
      return { value: undefined, note: `removed "${name}" from ${where}` };
    },
  );
  if (target.json) process.stdout.write(`${JSON.stringify({ name, via, removed: true }, null, 2)}\n`);
  else process.stdout.write(`removed server "${name}"\n`);
  return 0;
}
