/**
 * What a server offers besides tools, on its page: its resources (each readable), resource
 * templates (filled, then read) and prompts (filled, then got). Whether the server declares
 * completions is asked once (`GET /api/servers/{name}/capabilities`): without them no
 * suggestion is asked for.
 * @module
 */
import type { ApiClient } from '../api.js';
import type { Prompt, Resource, ResourceTemplate } from '../api-types.js';
import { useLoad } from '../use-load.js';
import { PromptList } from './prompt-form.js';
import { ResourceList, TemplateList } from './resource-readers.js';

/** The three sections of server `server`. */
export function CatalogSections({
  api,
  server,
  resources,
  resourceTemplates,
  prompts,
}: {
  api: ApiClient;
  server: string;
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}) {
  // Read again with the catalog: a reconnected server may declare other capabilities.
  const capabilities = useLoad(() => api.capabilities(server), [server, resources, resourceTemplates, prompts]);
  const completes = capabilities.data?.capabilities.completions !== undefined;
  // Whether suggestions are asked, for whoever looks (a test): not known until the capabilities are read.
  const known = capabilities.data ? (completes ? 'yes' : 'no') : 'unknown';
  return (
    <div class="catalog" data-completions={known}>
      <ResourceList api={api} server={server} resources={resources} />
      <TemplateList api={api} server={server} templates={resourceTemplates} completes={completes} />
      <PromptList api={api} server={server} prompts={prompts} completes={completes} />
    </div>
  );
}
