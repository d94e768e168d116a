/**
 * One server: its live state (held tools counted) and commands (connect or disconnect, remove
 * after a confirmation, which leads back to the list), its settings (a form), its tools
 * (filtered, one line each until opened: description, input schema as a table, a test form
 * generated from it), resources, resource templates, prompts, its sampling spend and its stderr.
 * The catalog is read again when the stream says it changed; while the server is not
 * connected it is marked stale (the last list read) and its forms are off, and an error
 * reading it is always said, even over the list read before.
 * @module
 */
import type { ApiClient } from '../api.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../api-types.js';
import { CatalogOff } from '../catalog-live.js';
import { CatalogSections } from '../components/catalog-sections.js';
import { Countdown } from '../components/countdown.js';
import { ErrorNote } from '../components/error-note.js';
import { ServerCommands } from '../components/server-commands.js';
import { ServerSampling } from '../components/server-sampling.js';
import { ServerSettings } from '../components/server-settings.js';
import { ServerTools } from '../components/server-tools.js';
import { StateBadge } from '../components/state-badge.js';
import { StderrLog } from '../components/stderr-log.js';
import { useLive, useLiveEvent } from '../live.js';
import { attemptShown, type LiveServer, pingShown } from '../server-list.js';
import { useLoad } from '../use-load.js';
import { hrefOf } from '../use-route.js';

type Catalog = {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  held: Set<string>;
};

/** Everything the server offers, read together (503 while it is not connected). */
async function loadCatalog(api: ApiClient, name: string): Promise<Catalog> {
  const [tools, resources, resourceTemplates, prompts, quarantines] = await Promise.all([
    api.tools(name),
    api.resources(name),
    api.resourceTemplates(name),
    api.prompts(name),
    api.quarantines(),
  ]);
  return {
    tools: tools.tools,
    resources: resources.resources,
    resourceTemplates: resourceTemplates.resourceTemplates,
    prompts: prompts.prompts,
    held: new Set(quarantines.quarantines.filter((q) => q.server === name).map((q) => q.tool)),
  };
}

/** The server's live state and its commands; removed, the page goes back to the list. */
function ServerSummary({ api, server, held }: { api: ApiClient; server: LiveServer; held: number }) {
  const attempt = attemptShown(server);
  const ping = pingShown(server);
  return (
    <>
      <p class="summary" data-state={server.state} data-held={held}>
        <StateBadge state={server.state} /> {server.transport}
        {server.pid !== null && ` · pid ${server.pid}`}
        {attempt !== null && <span class="attempt"> · attempt {attempt}</span>}
        {server.state === 'reconnecting' && server.nextRetryAt && (
          <>
            {' '}
            · retry <Countdown until={server.nextRetryAt} />
          </>
        )}
        {ping !== null && ` · ping ${ping} ms`}
        {held > 0 && (
          <>
            {' '}
            ·{' '}
            <a class="held" href="#/quarantines">
              {held} held
            </a>
          </>
        )}
        {server.lastError && <span class="error"> · {server.lastError}</span>}
      </p>
      <div class="commands">
        <ServerCommands
          api={api}
          server={server}
          onPage
          onRemoved={() => {
            location.hash = hrefOf({ page: 'servers' });
          }}
        />
      </div>
    </>
  );
}

/** The page of server `name`. */
export function ServerPage({ api, name }: { api: ApiClient; name: string }) {
  const live = useLive();
  const server = live.servers.find((s) => s.name === name);
  const catalog = useLoad(() => loadCatalog(api, name), [name]);
  useLiveEvent(
    (event) =>
      (event.server === name && (event.type === 'connected' || event.type === 'catalog_changed')) ||
      event.type === 'tool_quarantined' ||
      event.type === 'tool_approved',
    catalog.reload,
  );
  if (live.loaded && !server) return <p role="alert">No server named {name} is configured.</p>;
  const data = catalog.data;
  const state = server?.state ?? 'connecting';
  const off = state === 'connected' ? null : `${name} is ${state.replace('_', ' ')}: connect it to run these.`;
  return (
    <>
      {server && <ServerSummary api={api} server={server} held={live.held.get(name) ?? 0} />}
      <ServerSettings api={api} name={name} />
      <ServerSampling api={api} name={name} />
      {catalog.error && (
        <ErrorNote
          error={
            data
              ? `Could not read what ${name} offers now (${catalog.error}): the lists below are the last ones read.`
              : `${catalog.error}: what it offers shows once it is connected.`
          }
        />
      )}
      {data && off && (
        <p class="note stale" data-stale="true">
          Stale: {name} is not connected ({state.replace('_', ' ')}); what follows is what it offered when last read,
          and running, reading and getting are off until it connects.
        </p>
      )}
      {data && (
        <CatalogOff.Provider value={off}>
          <ServerTools api={api} server={name} tools={data.tools} held={data.held} />
          <CatalogSections
            key={name}
            api={api}
            server={name}
            resources={data.resources}
            resourceTemplates={data.resourceTemplates}
            prompts={data.prompts}
          />
        </CatalogOff.Provider>
      )}
      <StderrLog api={api} server={name} />
    </>
  );
}
