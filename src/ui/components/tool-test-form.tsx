/**
 * The test form of one tool, generated from its input schema (`tool-form.ts`): fill it, run
 * the tool through `POST /api/servers/{name}/tools/{tool}/call` (as an agent would call it:
 * view, pins, sanitizer and audit apply), watch its progress as the upstream reports it,
 * cancel it while it runs (the service cancels it upstream), and see the result with how
 * long it took. The arguments can be typed as raw JSON instead (`raw-arguments.ts`), the
 * mode a schema that fields cannot draw opens in; Run is off while the catalog is stale.
 * @module
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { ToolCallAnswer, ToolCallProgress } from '../api-types.js';
import { useCatalogOff } from '../catalog-live.js';
import { canDrawFields, draftArguments, parseRawArguments, valuesFromArguments } from '../raw-arguments.js';
import { type FormValues, initialValues, toArguments, toFields } from '../tool-form.js';
import { CallProgress } from './call-progress.js';
import { CallResult } from './call-result.js';
import { ErrorNote } from './error-note.js';
import { FieldInput } from './field-input.js';
import { RawArgumentsField } from './raw-arguments-field.js';

/** The form for `tool` of `server`. */
export function ToolTestForm({
  api,
  server,
  tool,
  inputSchema,
}: {
  api: ApiClient;
  server: string;
  tool: string;
  inputSchema: unknown;
}) {
  const fields = useMemo(() => toFields(inputSchema), [inputSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Raw JSON: by default when the fields cannot say what the schema allows.
  const drawable = useMemo(() => canDrawFields(inputSchema), [inputSchema]);
  const [raw, setRaw] = useState<string | null>(() => (drawable ? null : '{}'));
  const [rawError, setRawError] = useState<string | undefined>(undefined);
  const off = useCatalogOff();
  const [answer, setAnswer] = useState<ToolCallAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [progress, setProgress] = useState<ToolCallProgress | null>(null);
  // The running call's controller: Cancel aborts it, and so does leaving the page.
  const [running, setRunning] = useState<AbortController | null>(null);
  const current = useRef<AbortController | null>(null);
  const runButton = useRef<HTMLButtonElement>(null);
  useEffect(() => () => current.current?.abort(), []);
  const idOf = (name: string) => `call-${server}-${tool}-${name}`.replace(/[^\w-]/g, '_');

  /** Switch modes, carrying what was typed; a JSON the fields cannot hold stays JSON. */
  const switchMode = () => {
    if (raw === null) {
      setRaw(JSON.stringify(draftArguments(fields, values), null, 2));
      setErrors({});
      return setRawError(undefined);
    }
    const parsed = parseRawArguments(raw);
    const back = parsed.ok ? valuesFromArguments(fields, parsed.arguments) : parsed;
    if (!back.ok) return setRawError(`Not switched: ${back.error}`);
    setValues(back.values);
    setRaw(null);
    setRawError(undefined);
  };
  /** The arguments to send, or null when something typed is wrong (said next to it). */
  const argumentsOf = (): Record<string, unknown> | null => {
    if (raw !== null) {
      const parsed = parseRawArguments(raw);
      setRawError(parsed.ok ? undefined : parsed.error);
      return parsed.ok ? parsed.arguments : null;
    }
    const parsed = toArguments(fields, values);
    setErrors(parsed.ok ? {} : parsed.errors);
    return parsed.ok ? parsed.arguments : null;
  };

  const run = async (event: Event) => {
    event.preventDefault();
    if (off !== null || current.current) return;
    const args = argumentsOf();
    if (args === null) return;
    const controller = new AbortController();
    current.current = controller;
    setRunning(controller);
    setFailure(null);
    setCancelled(false);
    setAnswer(null);
    setProgress(null);
    try {
      setAnswer(
        await api.watchToolCall(
          server,
          tool,
          { arguments: args },
          { signal: controller.signal, onProgress: setProgress },
        ),
      );
    } catch (error) {
      if (controller.signal.aborted) setCancelled(true);
      else setFailure((error as Error).message);
    } finally {
      current.current = null;
      setRunning(null);
    }
    // Run was disabled and Cancel is gone (once drawn): the focus goes back to Run rather than the page.
    requestAnimationFrame(() => {
      if (document.activeElement === document.body || document.activeElement === null) runButton.current?.focus();
    });
  };
  return (
    // Checked by toArguments, whose messages name the field and are announced (not the browser's bubbles).
    <form class="tool-form" onSubmit={run} aria-label={`Run ${tool}`} aria-busy={running !== null} noValidate>
      {raw !== null && <RawArgumentsField id={idOf('raw')} value={raw} error={rawError} onInput={setRaw} />}
      {raw === null && drawable && fields.length === 0 && <p class="note">{tool} takes no arguments.</p>}
      {raw === null &&
        fields.map((field) => (
          <FieldInput
            key={field.name}
            id={idOf(field.name)}
            field={field}
            value={values[field.name] ?? field.initial}
            error={errors[field.name]}
            onInput={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
          />
        ))}
      <p class="call-buttons">
        {(drawable || fields.length > 0) && (
          <button type="button" onClick={switchMode}>
            {raw === null ? 'Edit as JSON' : 'Edit as fields'}
            <span class="visually-hidden"> ({tool})</span>
          </button>
        )}
        <button
          type="submit"
          ref={runButton}
          disabled={running !== null || off !== null}
          aria-describedby={off !== null ? idOf('off') : undefined}
        >
          {running ? 'Running…' : `Run ${tool}`}
        </button>
        {running && (
          <button type="button" class="cancel" onClick={() => running.abort()}>
            Cancel {tool}
          </button>
        )}
      </p>
      {off !== null && (
        <p id={idOf('off')} class="note">
          {off}
        </p>
      )}
      {running && <CallProgress progress={progress} label={tool} />}
      {cancelled && (
        <p class="note" role="status">
          Cancelled: the call to {tool} was stopped.
        </p>
      )}
      <ErrorNote error={failure} />
      {answer && <CallResult answer={answer} id={idOf('result')} />}
    </form>
  );
}
