/**
 * A bot's workflows on its tab (SPEC B3, issue 19): each with its steps, run from here
 * ({@link WorkflowRunPanel}), edited in {@link WorkflowForm} (the tools to pick are the bot's
 * own: its servers' tools its view allows, by public name), deleted after a confirmation;
 * a new one added.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot } from '../api-types.js';
import { isToolAllowed } from '../bot-permissions.js';
import { publicToolName } from '../public-tool-name.js';
import { useLoad } from '../use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';
import { WorkflowForm } from './workflow-form.js';
import { WorkflowRunPanel } from './workflow-run.js';

/** The public names (`{server}__{tool}`, {@link publicToolName}) of the tools `bot`'s view serves; a server not connected adds none. */
async function botToolNames(api: ApiClient, bot: Bot): Promise<string[]> {
  const lists = await Promise.all(
    bot.servers.map(async (server) => {
      const tools = await api.tools(server).then(
        (answer) => answer.tools,
        () => [],
      );
      const allowed = tools.filter((t) => isToolAllowed(bot.view, server, t.name));
      return Promise.all(allowed.map((t) => publicToolName(server, t.name)));
    }),
  );
  return lists.flat().filter((name): name is string => name !== null);
}

/** The workflows of `bot`. */
export function BotWorkflows({ api, bot }: { api: ApiClient; bot: Bot }) {
  const slug = bot.slug;
  const workflows = useLoad(async () => (await api.workflows(slug)).workflows, [slug]);
  const tools = useLoad(() => botToolNames(api, bot), [slug, bot.servers.join(), JSON.stringify(bot.view)]);
  // The workflow whose form is open: a name, `''` for a new one, null for none.
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = () => {
    setEditing(null);
    workflows.reload();
  };
  const remove = async (name: string) => {
    setError(null);
    try {
      await api.deleteWorkflow(slug, name);
    } catch (failure) {
      setError(`Could not delete ${name}: ${(failure as Error).message}`);
    }
    workflows.reload();
  };
  const form = (name?: string) => (
    <WorkflowForm
      api={api}
      slug={slug}
      {...(name === undefined ? {} : { workflow: workflows.data?.find((w) => w.name === name) })}
      tools={tools.data ?? []}
      taken={workflows.data?.map((w) => w.name) ?? []}
      onSaved={saved}
      onCancel={() => setEditing(null)}
    />
  );
  return (
    <section aria-labelledby="bot-workflows-title" class="content-section">
      <h2 id="bot-workflows-title">Workflows ({workflows.data?.length ?? '…'})</h2>
      <ErrorNote error={error ?? workflows.error} />
      {workflows.data?.length === 0 && <p class="note">None.</p>}
      <ul class="listing items">
        {workflows.data?.map((workflow) => (
          <li key={workflow.name} data-workflow={workflow.name}>
            {editing === workflow.name ? (
              form(workflow.name)
            ) : (
              <>
                <code>{workflow.name}</code>
                <span class="prose"> — {workflow.steps.map((step) => step.tool).join(' → ')}</span>
                {workflow.description && <span class="note"> {workflow.description}</span>}
                <span class="item-actions">
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Edit workflow ${workflow.name}`}
                    onClick={() => setEditing(workflow.name)}
                  >
                    Edit workflow
                  </button>
                  <ConfirmButton
                    label="Delete workflow"
                    what={workflow.name}
                    question={`Delete ${workflow.name}?`}
                    onConfirm={() => remove(workflow.name)}
                  />
                </span>
                <details>
                  <summary>Run {workflow.name}</summary>
                  <WorkflowRunPanel api={api} slug={slug} workflow={workflow} />
                </details>
              </>
            )}
          </li>
        ))}
      </ul>
      {editing === '' ? (
        form()
      ) : (
        <button type="button" onClick={() => setEditing('')}>
          New workflow
        </button>
      )}
    </section>
  );
}
