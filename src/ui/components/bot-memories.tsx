/**
 * A bot's memories on its tab (SPEC B3, issue 19): each with its category, changed in place
 * (`PATCH …/memories/{id}`) or deleted after a confirmation, and a form to add one. The
 * API's errors show under the field they name; the list is read again after each change.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Memory } from '../api-types.js';
import { type FieldErrors, fieldErrors } from '../field-errors.js';
import { useLoad } from '../use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';
import { FormField } from './form-field.js';

/** The content and category form, to add (no `memory`) or to change one. */
function MemoryForm({
  id,
  memory,
  onSave,
  onCancel,
}: {
  id: string;
  memory?: Memory;
  onSave: (body: { content: string; category?: string }) => Promise<void>;
  onCancel?: () => void;
}) {
  const [content, setContent] = useState(memory?.content ?? '');
  const [category, setCategory] = useState(memory?.category ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await onSave({ content, ...(category.trim() ? { category: category.trim() } : {}) });
      if (!memory) {
        setContent('');
        setCategory('');
      }
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="memory-form" onSubmit={submit} aria-label={memory ? `Change memory ${memory.id}` : 'Add a memory'}>
      <FormField
        id={`${id}-content`}
        label="Content"
        area
        value={content}
        onInput={setContent}
        error={errors.content}
      />
      <FormField
        id={`${id}-category`}
        label="Category"
        hint="default general"
        value={category}
        onInput={setCategory}
        error={errors.category}
      />
      <ErrorNote error={errors['']} />
      <button type="submit" disabled={busy}>
        {memory ? 'Save memory' : 'Add memory'}
      </button>
      {onCancel && (
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

/** The memories of bot `slug`. */
export function BotMemories({ api, slug }: { api: ApiClient; slug: string }) {
  const memories = useLoad(async () => (await api.memories(slug)).memories, [slug]);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (memory: Memory) => {
    setError(null);
    try {
      await api.deleteMemory(slug, memory.id);
    } catch (failure) {
      setError(`Could not delete the memory: ${(failure as Error).message}`);
    }
    memories.reload();
  };
  return (
    <section aria-labelledby="bot-memories-title" class="content-section">
      <h2 id="bot-memories-title">Memories ({memories.data?.length ?? '…'})</h2>
      <ErrorNote error={error ?? memories.error} />
      {memories.data?.length === 0 && <p class="note">None.</p>}
      <ul class="listing items">
        {memories.data?.map((memory) => (
          <li key={memory.id} data-memory={memory.id}>
            {editing === memory.id ? (
              <MemoryForm
                id={`memory-${memory.id}`}
                memory={memory}
                onCancel={() => setEditing(null)}
                onSave={async (body) => {
                  await api.changeMemory(slug, memory.id, {
                    content: body.content,
                    category: body.category ?? 'general',
                  });
                  setEditing(null);
                  memories.reload();
                }}
              />
            ) : (
              <>
                <span class="badge">{memory.category}</span> <span class="prose">{memory.content}</span>
                <span class="item-actions">
                  <button type="button" class="quiet" onClick={() => setEditing(memory.id)}>
                    Edit memory
                  </button>
                  <ConfirmButton
                    label="Delete memory"
                    question="Delete this memory?"
                    onConfirm={() => remove(memory)}
                  />
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
      <details>
        <summary>Add a memory</summary>
        <MemoryForm
          id="new-memory"
          onSave={async (body) => {
            await api.addMemory(slug, body);
            memories.reload();
          }}
        />
      </details>
    </section>
  );
}
