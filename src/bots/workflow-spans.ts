/**
 * The spans of a workflow run (issue 21): `boternity.workflow {name}` for the run, a child
 * `boternity.workflow.step {id}` per step run, the parent of the gateway's spans for its
 * tool call. No tracer (traces off): nothing.
 * @module
 */
import { type Context, ROOT_CONTEXT, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

/** The spans of one run; every method does nothing when traces are off. */
export type WorkflowSpans = {
  /** A step began; its context is the tool call's parent, `end` ends it with its error (null: it succeeded). */
  step(id: string, tool: string): { context: Context | null; end(error: string | null): void };
  /** The run ended; `failedStep` names the step it stopped at. */
  end(failedStep: string | null, error: string | null): void;
};

const NOOP: WorkflowSpans = { step: () => ({ context: null, end: () => undefined }), end: () => undefined };

/** Begin the spans of run `runId` of workflow `name` of bot `slug`. */
export function startWorkflowSpans(
  tracer: Tracer | null | undefined,
  slug: string,
  name: string,
  runId: string,
): WorkflowSpans {
  if (!tracer) return NOOP;
  const run = tracer.startSpan(`boternity.workflow ${name}`, {
    attributes: { 'boternity.bot': slug, 'boternity.workflow': name, 'boternity.workflow.run_id': runId },
  });
  const parent = trace.setSpan(ROOT_CONTEXT, run);
  return {
    step(id, tool) {
      const span = tracer.startSpan(
        `boternity.workflow.step ${id}`,
        { attributes: { 'boternity.workflow.step': id, 'gen_ai.tool.name': tool } },
        parent,
      );
      return {
        context: trace.setSpan(parent, span),
        end(error) {
          if (error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
          span.end();
        },
      };
    },
    end(failedStep, error) {
      if (failedStep !== null) {
        run.setAttribute('boternity.workflow.failed_step', failedStep);
        run.setStatus({ code: SpanStatusCode.ERROR, message: error ?? 'failed' });
      }
      run.end();
    },
  };
}
