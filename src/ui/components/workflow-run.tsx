/**
 * Run a workflow and watch it (issue 19): `POST …/workflows/{name}/run` with an input (JSON)
 * answers only when the run ends, so each step's row follows the push events meanwhile: the
 * first `workflow_started` of this bot's workflow after the press gives the run's id, then
 * each `workflow_step_finished` of that id marks its step (pending → running → succeeded
 * or failed, with its duration). The answer then gives the output or the error, and the
 * steps skipped after a failure.
 * @module
 */
import { useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { LiveEvent, Workflow, WorkflowEvent, WorkflowRun } from '../api-types.js';
import { useLiveEvent } from '../live.js';
import { ErrorNote } from './error-note.js';
import { FormField } from './form-field.js';
import { JsonView } from './json-view.js';

/** A step's row: where its state came from (`event` while the run goes, `answer` after). */
type StepState = { status: string; durationMs: number | null; error: string | null; from: 'event' | 'answer' };

const isRunEvent = (event: LiveEvent): event is WorkflowEvent =>
  event.type === 'workflow_started' || event.type === 'workflow_step_finished' || event.type === 'workflow_finished';

/** The run panel of `workflow`. */
export function WorkflowRunPanel({ api, slug, workflow }: { api: ApiClient; slug: string; workflow: Workflow }) {
  const key = `run-${workflow.name}`;
  const [input, setInput] = useState('{}');
  const [inputError, setInputError] = useState<string | null>(null);
  const [steps, setSteps] = useState<Record<string, StepState>>({});
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState<WorkflowRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The run followed: null before its start is seen, while `waiting` says a press awaits one.
  const runId = useRef<string | null>(null);
  const waiting = useRef(false);
  useLiveEvent(
    (event) => isRunEvent(event) && event.bot === slug && event.workflow === workflow.name,
    (event) => {
      const e = event as WorkflowEvent;
      if (e.type === 'workflow_started') {
        if (waiting.current) {
          waiting.current = false;
          runId.current = e.runId;
        }
        return;
      }
      if (e.type !== 'workflow_step_finished' || e.runId !== runId.current) return;
      setSteps((all) => ({
        ...all,
        [e.step]: { status: e.status, durationMs: e.durationMs, error: e.error, from: 'event' },
      }));
    },
  );
  const start = async (event: Event) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = input.trim() ? JSON.parse(input) : undefined;
    } catch (failure) {
      return setInputError(`the input is not JSON: ${(failure as Error).message}`);
    }
    setInputError(null);
    setError(null);
    setRun(null);
    setSteps({});
    runId.current = null;
    waiting.current = true;
    setRunning(true);
    try {
      const answer = (await api.runWorkflow(slug, workflow.name, parsed)).run;
      setSteps((all) => {
        const next = { ...all };
        for (const step of answer.steps)
          next[step.id] ??= { status: step.status, durationMs: step.durationMs, error: step.error, from: 'answer' };
        return next;
      });
      setRun(answer);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      waiting.current = false;
      setRunning(false);
    }
  };
  // While running, the first step without a state is the one running.
  const current = running ? workflow.steps.find((s) => !steps[s.id])?.id : undefined;
  return (
    <form class="workflow-run" onSubmit={start} aria-label={`Run ${workflow.name}`}>
      <FormField
        id={`${key}-input`}
        label="Input (JSON)"
        area
        mono
        value={input}
        onInput={setInput}
        error={inputError}
      />
      <button type="submit" disabled={running}>
        {running ? 'Running…' : 'Run workflow'}
      </button>
      <div class="table-wrap">
        <table class="run-steps">
          <caption class="visually-hidden">Steps of {workflow.name}</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Tool</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Duration
              </th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {workflow.steps.map((step) => {
              const state = steps[step.id];
              const status = state?.status ?? (step.id === current ? 'running' : 'pending');
              return (
                <tr key={step.id} data-run-step={step.id} data-status={status} data-from={state?.from}>
                  <td>
                    <code>{step.id}</code>
                  </td>
                  <td>
                    <code>{step.tool}</code>
                  </td>
                  <td class={`run-${status}`}>
                    {status}
                    {state?.error && <span class="error"> — {state.error}</span>}
                  </td>
                  <td class="num">{state?.durationMs == null ? '' : `${state.durationMs} ms`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ErrorNote error={error ?? (run?.status === 'failed' ? `Failed: ${run.error}` : null)} />
      {run?.status === 'succeeded' && (
        <div class="result run-output">
          <h4>Output</h4>
          <JsonView value={run.output} />
        </div>
      )}
    </form>
  );
}
