/**
 * A bot's profile as a form (SPEC B1): a new bot (`POST /api/bots`), a profile for a bot
 * that has only a view in the config file (the same, its slug given), or an edit
 * (`PATCH /api/bots/{slug}` with the fields that changed; an emptied optional field sent as
 * null, which clears it). What the API refuses is shown as its one line next to the field
 * it names (`issues[].field`; a taken slug by the slug). The credential key suggests the
 * keystore's names (`GET /api/credentials`): the key names an entry, never holds the secret.
 * @module
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot } from '../api-types.js';
import {
  type BotFormValues,
  type BotProfile,
  botFormErrors,
  botPatch,
  botValuesOf,
  emptyBotValues,
  newBotBody,
} from '../bot-form-values.js';
import { useLoad } from '../use-load.js';
import { BotField } from './bot-field.js';
import { ErrorNote } from './error-note.js';

type Errors = ReturnType<typeof botFormErrors>;
const NO_ERRORS: Errors = { fields: {}, other: null };

/** The form; `profile` to edit one, else a new bot (with `slug` given: a profile for that view). */
export function BotForm({
  api,
  profile,
  slug,
  onSaved,
  onCancel,
}: {
  api: ApiClient;
  profile?: BotProfile | undefined;
  slug?: string | undefined;
  onSaved: (bot: Bot) => void;
  onCancel?: (() => void) | undefined;
}) {
  const credentials = useLoad(() => api.credentials(), []);
  const [values, setValues] = useState<BotFormValues>(() => (profile ? botValuesOf(profile) : emptyBotValues(slug)));
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const own = useRef<HTMLFormElement>(null);
  // Opened by a button that the form replaces: the focus goes to its first field, not to the
  // page. At once, as the form is drawn (not a frame later, as useEffect would): a key typed
  // meanwhile into another field would otherwise land in the first one (the CI flake of
  // bots-page: a Delete meant for Base URL took a letter off the name).
  useLayoutEffect(() => own.current?.querySelector<HTMLElement>('input:not([readonly])')?.focus(), []);
  const title = profile ? `Edit ${profile.slug}` : slug ? `A profile for ${slug}` : 'New bot';

  const field = (key: keyof BotFormValues, label: string, more: Partial<Parameters<typeof BotField>[0]> = {}) => (
    <BotField
      id={`bot-${key}`}
      label={label}
      value={values[key]}
      error={errors.fields[key]}
      onInput={(value) => setValues((v) => ({ ...v, [key]: value }))}
      {...more}
    />
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors(NO_ERRORS);
    setUnchanged(false);
    const patch = profile ? botPatch(profile, values) : null;
    if (patch && Object.keys(patch).length === 0) return setUnchanged(true);
    setBusy(true);
    try {
      const answer =
        profile && patch ? await api.updateBot(profile.slug, patch) : await api.createBot(newBotBody(values));
      onSaved(answer.bot);
    } catch (failure) {
      setErrors(botFormErrors(failure as Error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={own} class="card bot-form" onSubmit={submit} aria-labelledby="bot-form-title">
      <h2 id="bot-form-title">{title}</h2>
      {!profile &&
        field('slug', 'Slug', {
          required: true,
          readOnly: slug !== undefined,
          hint: 'its address: lowercase letters, digits and -, e.g. scout',
        })}
      {field('name', 'Name', { required: true })}
      {field('description', 'Description', { area: true })}
      {field('category', 'Category', { hint: 'optional, e.g. ops' })}
      {field('systemPrompt', 'System prompt', { area: true })}
      <fieldset>
        <legend>LLM provider (OpenAI-compatible; empty: none)</legend>
        {field('baseUrl', 'Base URL', { hint: 'http:// or https://, e.g. http://127.0.0.1:11434/v1' })}
        {field('model', 'Model')}
        {field('credentialKey', 'Credential key', {
          list: 'bot-credential-names',
          hint: 'the name of a keystore entry holding its API key (see Credentials)',
        })}
        <datalist id="bot-credential-names">
          {credentials.data?.credentials.map((c) => (
            <option key={c.name} value={c.name} />
          ))}
        </datalist>
      </fieldset>
      {field('samplingBudgetTokens', 'Sampling budget (tokens)', {
        inputMode: 'numeric',
        hint: "for answering servers' sampling requests; empty: no budget",
      })}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : profile ? 'Save changes' : slug ? 'Give it a profile' : 'Create bot'}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      {unchanged && (
        <p class="note" role="status">
          Nothing changed.
        </p>
      )}
      <ErrorNote error={errors.other} />
    </form>
  );
}
