/**
 * A server's prompts, each with a form: a field per argument (required ones marked and
 * checked before sending), the server's suggestions offered as the user types when it
 * declares completions, and Get, which asks `POST /api/servers/{name}/prompts/{prompt}/get`
 * (as an agent gets it: sanitized, audited) and shows the messages by role.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { GetPromptResult, Prompt } from '../api-types.js';
import { useCatalogOff } from '../catalog-live.js';
import { useSuggestions } from '../use-suggestions.js';
import { ArgumentField } from './argument-field.js';
import { ErrorNote } from './error-note.js';
import { PromptMessages } from './prompt-messages.js';

/** The filled arguments, empty ones left out. */
const filled = (values: Record<string, string>, except?: string) =>
  Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== except && v !== ''));

/** One prompt: what it says it does, and its form. */
function PromptCard({
  api,
  server,
  prompt,
  completes,
}: {
  api: ApiClient;
  server: string;
  prompt: Prompt;
  completes: boolean;
}) {
  const args = prompt.arguments ?? [];
  const off = useCatalogOff();
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [state, setState] = useState<{ running: boolean; error: string | null; result: GetPromptResult | null }>({
    running: false,
    error: null,
    result: null,
  });
  const ask = completes
    ? async (name: string, value: string, context: Record<string, string>) =>
        (
          await api.complete(server, {
            ref: { type: 'ref/prompt', name: prompt.name },
            argument: { name, value },
            context: { arguments: context },
          })
        ).completion.values
    : null;
  const { suggestions, suggest } = useSuggestions(ask);
  const idOf = (name: string) => `prompt-${server}-${prompt.name}-${name}`.replace(/[^\w-]/g, '_');
  const get = async (event: Event) => {
    event.preventDefault();
    const absent = args.filter((a) => a.required && !values[a.name]).map((a) => a.name);
    setMissing(absent);
    if (absent.length > 0) return;
    setState({ running: true, error: null, result: null });
    try {
      setState({ running: false, error: null, result: await api.getPrompt(server, prompt.name, filled(values)) });
    } catch (error) {
      setState({ running: false, error: (error as Error).message, result: null });
    }
  };
  return (
    <li class="card catalog-item" data-prompt={prompt.name}>
      <h3>
        <code>{prompt.name}</code>
        {prompt.title && <span class="note"> {prompt.title}</span>}
      </h3>
      <p class="prose">{prompt.description ?? '(no description)'}</p>
      <form aria-label={`Get ${prompt.name}`} noValidate onSubmit={get}>
        {args.map((arg) => (
          <div key={arg.name}>
            <ArgumentField
              id={idOf(arg.name)}
              name={arg.name}
              required={arg.required === true}
              description={arg.description}
              value={values[arg.name] ?? ''}
              suggestions={suggestions[arg.name]}
              onInput={(value) => {
                const next = { ...values, [arg.name]: value };
                setValues(next);
                suggest(arg.name, value, filled(next, arg.name));
              }}
              onFocus={() => suggest(arg.name, values[arg.name] ?? '', filled(values, arg.name))}
            />
            {missing.includes(arg.name) && (
              <p class="error field-error" role="alert">
                {arg.name}: required
              </p>
            )}
          </div>
        ))}
        <button type="submit" disabled={state.running || off !== null}>
          {state.running ? 'Getting…' : `Get ${prompt.name}`}
        </button>
      </form>
      <ErrorNote error={state.error} />
      {state.result && <PromptMessages result={state.result} prompt={prompt.name} />}
    </li>
  );
}

/** The prompts. */
export function PromptList({
  api,
  server,
  prompts,
  completes,
}: {
  api: ApiClient;
  server: string;
  prompts: Prompt[];
  completes: boolean;
}) {
  return (
    <section aria-label="Prompts">
      <h2>Prompts ({prompts.length})</h2>
      {prompts.length === 0 ? (
        <p class="note">None.</p>
      ) : (
        <ul class="catalog-cards">
          {prompts.map((p) => (
            <PromptCard key={p.name} api={api} server={server} prompt={p} completes={completes} />
          ))}
        </ul>
      )}
    </section>
  );
}
