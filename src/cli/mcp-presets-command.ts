/**
 * `bnity mcp presets`: the bundled presets (SPEC C7), whether each is installed with
 * boternity (no download) and what it needs. From the running service, else from this copy.
 * @module
 */
import { listPresets } from '../config/presets.js';
import { formatTable } from './format-table.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** A preset as `GET /api/presets` lists it. */
type PresetRow = {
  name: string;
  description: string;
  package: string;
  installed: boolean;
  needs?: { args?: unknown; env?: unknown; credential?: unknown };
};

/** Run `bnity mcp presets`. */
export async function mcpPresetsCommand(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const { value: presets } = await serviceOrFile<PresetRow[]>(
    target,
    async () => (await target.client.get<{ presets: PresetRow[] }>('/api/presets')).presets,
    async () => ({ value: listPresets(), note: 'listing the presets of this copy of boternity' }),
  );
  if (target.json) {
    process.stdout.write(`${JSON.stringify({ presets }, null, 2)}\n`);
    return 0;
  }
  const rows = presets.map((p) => [p.name, p.installed ? 'yes' : 'no', describeNeeds(p.needs), p.description]);
  process.stdout.write(`${formatTable(['PRESET', 'INSTALLED', 'NEEDS', 'DESCRIPTION'], rows)}\n`);
  return 0;
}

/** `args: one or more directories; env: A B; credential: github-token`: what `add --preset` must be given. */
function describeNeeds(needs: PresetRow['needs']): string {
  const parts = Object.entries(needs ?? {})
    .filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`);
  return parts.length > 0 ? parts.join('; ') : '-';
}
