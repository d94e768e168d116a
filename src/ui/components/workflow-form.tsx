/**
 * A workflow's form (SPEC B3, issue 19): its steps one by one (id, a tool picked from the
 * bot's tools, arguments as JSON, a timeout) or the whole workflow as JSON, switching
 * between the two. Saving is `PUT …/workflows/{name}`; the API's check of every
 * `{{steps.…}}` answers 400 naming the step and field, shown under that step.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Workflow, WorkflowInput, WorkflowStep } from '../api-types.js';
import { errorUnder, type FieldErrors, fieldErrors } from '../field-errors.js';
import { nameTaken } from '../name-taken.js';
import { ErrorNote } from './error-note.js';
import { FormField } from './form-field.js';

/** A step as the form edits it: its arguments and timeout as text. */
type StepRow = { id: string; tool: string; args: string; timeoutMs: string };

const toRow = (step: WorkflowStep): StepRow => ({
  id: step.id,
  tool: step.tool,
  args: JSON.stringify(step.arguments ?? {}, null, 2),
  timeoutMs: step.timeoutMs === undefined ? '' : String(step.timeoutMs),
});

/** The rows as the API's body, or the errors of the rows whose JSON does not parse. */
function toBody(description: string, rows: readonly StepRow[]): WorkflowInput | FieldErrors {
  const errors: Record<string, string> = {};
  const steps = rows.map((row, i): WorkflowStep => {
    let args: Record<string, unknown> = {};
    try {
      args = row.args.trim() ? JSON.parse(row.args) : {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error('not an object');
    } catch {
      errors[`steps.${i}.arguments`] = 'arguments must be a JSON object, as {"text": "{{input.text}}"}';
    }
    const timeout = row.timeoutMs.trim();
    return {
      id: row.id.trim(),
      tool: row.tool,
      arguments: args,
      ...(timeout ? { timeoutMs: Number(timeout) } : {}),
    };
  });
  if (Object.keys(errors).length) return errors;
  return { ...(description.trim() ? { description } : {}), steps };
}

/** The form; `workflow` absent: a new one. `tools` are the bot's tools by public name. */
export function WorkflowForm({
  api,
  slug,
  workflow,
  taken,
  tools,
  onSaved,
  onCancel,
}: {
  api: ApiClient;
  slug: string;
  workflow?: Workflow;
  /** The names the bot has now: a new one may not take one of them (a save would replace it). */
  taken: readonly string[];
  tools: readonly string[];
  onSaved: (workflow: Workflow) => void;
  onCancel: () => void;
}) {
  const key = workflow ? `workflow-${workflow.name}` : 'new-workflow';
  const [name, setName] = useState(workflow?.name ?? '');
  const [description, setDescription] = useState(workflow?.description ?? '');
  const [rows, setRows] = useState<StepRow[]>(
    workflow?.steps.map(toRow) ?? [{ id: 'first', tool: tools[0] ?? '', args: '{}', timeoutMs: '' }],
  );
  const [json, setJson] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const change = (i: number, patch: Partial<StepRow>) =>
    setRows((all) => all.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  /** The body the form or the JSON holds, or why not (errors set). */
  const body = (): WorkflowInput | null => {
    if (json !== null) {
      try {
        return JSON.parse(json) as WorkflowInput;
      } catch (error) {
        setErrors({ json: `not JSON: ${(error as Error).message}` });
        return null;
      }
    }
    const made = toBody(description, rows);
    if ('steps' in made && Array.isArray(made.steps)) return made as WorkflowInput;
    setErrors(made as FieldErrors);
    return null;
  };
  const toggleJson = () => {
    setErrors({});
    if (json === null) {
      const made = body();
      if (made) setJson(JSON.stringify(made, null, 2));
      return;
    }
    const parsed = body();
    if (!parsed) return;
    if (!Array.isArray(parsed.steps)) return setErrors({ json: 'the JSON needs a "steps" list' });
    setDescription(parsed.description ?? '');
    setRows(parsed.steps.map(toRow));
    setJson(null);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: 'a workflow needs a name' });
    const clash = nameTaken(name, taken, 'workflow', workflow?.name);
    if (clash) return setErrors({ name: clash });
    setErrors({});
    const made = body();
    if (!made) return;
    setBusy(true);
    try {
      onSaved((await api.saveWorkflow(slug, name.trim(), made)).workflow);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  // Errors with no field of their own on screen: in JSON mode every one, in the form those of no step.
  const elsewhere = Object.entries(errors).filter(
    ([field]) => !['', 'name', 'json'].includes(field) && (json !== null || !/^steps\.\d+(\.|$)/.test(field)),
  );
  return (
    <form
      class="card content-form"
      onSubmit={submit}
      aria-label={workflow ? `Edit workflow ${workflow.name}` : 'New workflow'}
    >
      {!workflow && (
        <FormField id={`${key}-name`} label="Name" required value={name} onInput={setName} error={errors.name} />
      )}
      <button type="button" class="quiet" aria-pressed={json !== null} onClick={toggleJson}>
        {json === null ? 'Edit as JSON' : 'Edit as a form'}
      </button>
      {json === null ? (
        <>
          <FormField id={`${key}-description`} label="Description" value={description} onInput={setDescription} />
          <ol class="steps">
            {rows.map((row, i) => {
              const id = `${key}-step-${i}`;
              const problem = errorUnder(errors, `steps.${i}`);
              return (
                <li key={i} data-step={i} class="step">
                  <FormField
                    id={`${id}-id`}
                    label={`Step ${i + 1} id`}
                    value={row.id}
                    onInput={(v) => change(i, { id: v })}
                  />
                  <div class="field">
                    <label for={`${id}-tool`}>Tool</label>
                    <select
                      id={`${id}-tool`}
                      value={row.tool}
                      onChange={(e) => change(i, { tool: e.currentTarget.value })}
                    >
                      {[...(tools.includes(row.tool) ? [] : [row.tool]), ...tools].map((t) => (
                        <option key={t} value={t}>
                          {t || '(pick a tool)'}
                        </option>
                      ))}
                    </select>
                  </div>
                  <FormField
                    id={`${id}-arguments`}
                    label="Arguments (JSON)"
                    hint="{{input.x}}, {{steps.<id>.text}}"
                    area
                    mono
                    value={row.args}
                    onInput={(v) => change(i, { args: v })}
                  />
                  <FormField
                    id={`${id}-timeout`}
                    label="Timeout (ms)"
                    hint="empty: the default"
                    value={row.timeoutMs}
                    onInput={(v) => change(i, { timeoutMs: v })}
                  />
                  {problem && (
                    <p class="error field-error" role="alert" data-step-error={i}>
                      Step {i + 1}: {problem}
                    </p>
                  )}
                  <button type="button" class="quiet" onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
                    Remove step {i + 1}
                  </button>
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            onClick={() =>
              setRows((all) => [
                ...all,
                { id: `step${all.length + 1}`, tool: tools[0] ?? '', args: '{}', timeoutMs: '' },
              ])
            }
          >
            Add step
          </button>
        </>
      ) : (
        <FormField
          id={`${key}-json`}
          label="Workflow (JSON)"
          area
          rows={14}
          mono
          value={json}
          onInput={setJson}
          error={errors.json}
        />
      )}
      {elsewhere.map(([field, message]) => (
        <p key={field} class="error field-error" role="alert">
          {field}: {message}
        </p>
      ))}
      <ErrorNote error={errors[''] ?? null} />
      <button type="submit" disabled={busy}>
        Save workflow
      </button>
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
