/**
 * The test form of one tool, generated from its input schema (`tool-form.ts`): fill it, run
 * the tool through `POST /api/servers/{name}/tools/{tool}/call` (as an agent would call it:
 * view, pins, sanitizer and audit apply), watch its progress as the upstream reports it,
 * cancel it while it runs (the service cancels it upstream), and see the result with how
 * long it took.
 * @module
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { ToolCallAnswer, ToolCallProgress } from '../api-types.js';
import { type FormValues, initialValues, toArguments, toFields } from '../tool-form.js';
import { CallProgress } from './call-progress.js';
import { CallResult } from './call-result.js';
import { ErrorNote } from './error-note.js';
import { FieldInput } from './field-input.js';

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

  const run = async (event: Event) => {
    event.preventDefault();
    const parsed = toArguments(fields, values);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok || current.current) return;
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
          { arguments: parsed.arguments },
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
      {fields.map((field) => (
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
        <button type="submit" ref={runButton} disabled={running !== null}>
          {running ? 'Running…' : `Run ${tool}`}
        </button>
        {running && (
          <button type="button" class="cancel" onClick={() => running.abort()}>
            Cancel {tool}
          </button>
        )}
      </p>
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
