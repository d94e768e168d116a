/**
 * A server's resources and resource templates, each readable from the page through
 * `POST /api/servers/{name}/resources/read` (as an agent reads it: sanitized, audited): a
 * listed resource with its Read button; a template as a field per `{variable}` of its URI
 * (the server's suggestions offered as the user types, when it declares completions), the
 * URI it makes shown, then Read.
 * @module
 */
import { useMemo, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { ResourceContents as Contents, Resource, ResourceTemplate } from '../api-types.js';
import { useCatalogOff } from '../catalog-live.js';
import { expandTemplate, templateVariables } from '../uri-template.js';
import { useSuggestions } from '../use-suggestions.js';
import { ArgumentField } from './argument-field.js';
import { ErrorNote } from './error-note.js';
import { ResourceContents } from './resource-contents.js';

type Read = { running: boolean; error: string | null; contents: Contents[] | null };

/** Read a URI of `server`, keeping the answer or the error. */
function useRead(api: ApiClient, server: string) {
  const [read, setRead] = useState<Read>({ running: false, error: null, contents: null });
  const run = async (uri: string) => {
    setRead({ running: true, error: null, contents: null });
    try {
      setRead({ running: false, error: null, contents: (await api.readResource(server, uri)).contents });
    } catch (error) {
      setRead({ running: false, error: (error as Error).message, contents: null });
    }
  };
  return { read, run };
}

/** A listed resource and its Read button. */
function ResourceItem({ api, server, resource }: { api: ApiClient; server: string; resource: Resource }) {
  const { read, run } = useRead(api, server);
  const off = useCatalogOff();
  return (
    <li class="catalog-item" data-resource={resource.uri}>
      <code>{resource.uri}</code>
      <span class="prose"> — {resource.description ?? resource.title ?? resource.name}</span>
      {resource.mimeType && <span class="note"> · {resource.mimeType}</span>}{' '}
      <button type="button" disabled={read.running || off !== null} onClick={() => run(resource.uri)}>
        {read.running ? 'Reading…' : 'Read'}
        <span class="visually-hidden"> {resource.uri}</span>
      </button>
      <ErrorNote error={read.error} />
      {read.contents && <ResourceContents contents={read.contents} label={`Contents of ${resource.uri}`} />}
    </li>
  );
}

/** The listed resources. */
export function ResourceList({ api, server, resources }: { api: ApiClient; server: string; resources: Resource[] }) {
  return (
    <section aria-label="Resources">
      <h2>Resources ({resources.length})</h2>
      {resources.length === 0 ? (
        <p class="note">None.</p>
      ) : (
        <ul class="listing">
          {resources.map((r) => (
            <ResourceItem key={r.uri} api={api} server={server} resource={r} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** A template's form: a field per variable, the URI they make, and Read. */
function TemplateForm({
  api,
  server,
  template,
  completes,
}: {
  api: ApiClient;
  server: string;
  template: ResourceTemplate;
  completes: boolean;
}) {
  const variables = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate]);
  const [values, setValues] = useState<Record<string, string>>({});
  const { read, run } = useRead(api, server);
  const off = useCatalogOff();
  const ask = completes
    ? async (name: string, value: string, context: Record<string, string>) =>
        (
          await api.complete(server, {
            ref: { type: 'ref/resource', uri: template.uriTemplate },
            argument: { name, value },
            context: { arguments: context },
          })
        ).completion.values
    : null;
  const { suggestions, suggest } = useSuggestions(ask);
  const uri = expandTemplate(template.uriTemplate, values);
  const idOf = (name: string) => `tpl-${server}-${template.uriTemplate}-${name}`.replace(/[^\w-]/g, '_');
  const others = (name: string, next: Record<string, string>) =>
    Object.fromEntries(Object.entries(next).filter(([k, v]) => k !== name && v !== ''));
  const onInput = (name: string, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    suggest(name, value, others(name, next));
  };
  return (
    <li class="card catalog-item" data-template={template.uriTemplate}>
      <h3>
        <code>{template.uriTemplate}</code>
      </h3>
      <p class="prose">{template.description ?? template.title ?? template.name}</p>
      <form
        aria-label={`Read from template ${template.name}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(uri);
        }}
      >
        {variables.map((name) => (
          <ArgumentField
            key={name}
            id={idOf(name)}
            name={name}
            value={values[name] ?? ''}
            suggestions={suggestions[name]}
            onInput={(value) => onInput(name, value)}
            onFocus={() => suggest(name, values[name] ?? '', others(name, values))}
          />
        ))}
        <p class="note">
          Reads <code class="template-uri">{uri}</code>
        </p>
        <button type="submit" disabled={read.running || off !== null}>
          {read.running ? 'Reading…' : 'Read'}
          <span class="visually-hidden"> from {template.name}</span>
        </button>
      </form>
      <ErrorNote error={read.error} />
      {read.contents && <ResourceContents contents={read.contents} label={`Contents of ${uri}`} />}
    </li>
  );
}

/** The resource templates. */
export function TemplateList({
  api,
  server,
  templates,
  completes,
}: {
  api: ApiClient;
  server: string;
  templates: ResourceTemplate[];
  completes: boolean;
}) {
  return (
    <section aria-label="Resource templates">
      <h2>Resource templates ({templates.length})</h2>
      {templates.length === 0 ? (
        <p class="note">None.</p>
      ) : (
        <ul class="catalog-cards">
          {templates.map((t) => (
            <TemplateForm key={t.uriTemplate} api={api} server={server} template={t} completes={completes} />
          ))}
        </ul>
      )}
    </section>
  );
}
