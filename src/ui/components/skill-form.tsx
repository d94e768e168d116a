/**
 * A skill's form (SPEC B3, issue 19): its name (when new), description, template and declared
 * arguments (name, description, required, the values offered as completions). Saving is
 * `PUT …/skills/{name}`; the API checks every `{{…}}` names a declared argument, and its
 * errors show under the field they name (the template, an argument's name).
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Skill, SkillArgument } from '../api-types.js';
import { errorUnder, type FieldErrors, fieldErrors } from '../field-errors.js';
import { nameTaken } from '../name-taken.js';
import { ErrorNote } from './error-note.js';
import { FormField } from './form-field.js';

/** An argument as the form edits it: its values as one comma-separated line. */
type ArgumentRow = { name: string; description: string; required: boolean; values: string };

const toRow = (arg: SkillArgument): ArgumentRow => ({
  name: arg.name,
  description: arg.description ?? '',
  required: arg.required ?? false,
  values: (arg.values ?? []).join(', '),
});

const toArgument = (row: ArgumentRow): SkillArgument => {
  const values = row.values
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return {
    name: row.name.trim(),
    ...(row.description.trim() ? { description: row.description.trim() } : {}),
    ...(row.required ? { required: true } : {}),
    ...(values.length ? { values } : {}),
  };
};

/** The form; `skill` absent: a new one, named here. `onSaved` gets the skill as saved. */
export function SkillForm({
  api,
  slug,
  skill,
  taken,
  onSaved,
  onCancel,
}: {
  api: ApiClient;
  slug: string;
  skill?: Skill;
  /** The names the bot has now: a new one may not take one of them (a save would replace it). */
  taken: readonly string[];
  onSaved: (skill: Skill) => void;
  onCancel: () => void;
}) {
  const key = skill ? `skill-${skill.name}` : 'new-skill';
  const [name, setName] = useState(skill?.name ?? '');
  const [description, setDescription] = useState(skill?.description ?? '');
  const [template, setTemplate] = useState(skill?.template ?? '');
  const [args, setArgs] = useState<ArgumentRow[]>(skill?.arguments.map(toRow) ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const change = (i: number, patch: Partial<ArgumentRow>) =>
    setArgs((rows) => rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: 'a skill needs a name' });
    const clash = nameTaken(name, taken, 'skill', skill?.name);
    if (clash) return setErrors({ name: clash });
    setBusy(true);
    setErrors({});
    try {
      const answer = await api.saveSkill(slug, name.trim(), {
        template,
        ...(description.trim() ? { description } : {}),
        arguments: args.map(toArgument),
      });
      onSaved(answer.skill);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card content-form" onSubmit={submit} aria-label={skill ? `Edit skill ${skill.name}` : 'New skill'}>
      {!skill && (
        <FormField id={`${key}-name`} label="Name" required value={name} onInput={setName} error={errors.name} />
      )}
      <FormField
        id={`${key}-description`}
        label="Description"
        value={description}
        onInput={setDescription}
        error={errors.description}
      />
      <FormField
        id={`${key}-template`}
        label="Template"
        hint="{{argument}} inserts an argument"
        area
        rows={5}
        mono
        value={template}
        onInput={setTemplate}
        error={errors.template}
      />
      <fieldset class="arguments">
        <legend>Arguments ({args.length})</legend>
        {args.map((row, i) => {
          const id = `${key}-arg-${i}`;
          return (
            <div class="argument" key={i} data-argument={i}>
              <FormField
                id={`${id}-name`}
                label={`Argument ${i + 1} name`}
                value={row.name}
                onInput={(v) => change(i, { name: v })}
                error={errorUnder(errors, `arguments.${i}.name`) ?? errorUnder(errors, `arguments.${i}`)}
              />
              <FormField
                id={`${id}-description`}
                label="Description"
                value={row.description}
                onInput={(v) => change(i, { description: v })}
              />
              <FormField
                id={`${id}-values`}
                label="Values"
                hint="comma-separated, offered as completions"
                value={row.values}
                onInput={(v) => change(i, { values: v })}
              />
              <label class="choice">
                <input
                  type="checkbox"
                  checked={row.required}
                  onChange={(e) => change(i, { required: e.currentTarget.checked })}
                />{' '}
                Required
              </label>
              <button type="button" class="quiet" onClick={() => setArgs((rows) => rows.filter((_, j) => j !== i))}>
                Remove argument {i + 1}
              </button>
            </div>
          );
        })}
        <button
          type="button"
          onClick={() => setArgs((rows) => [...rows, { name: '', description: '', required: false, values: '' }])}
        >
          Add argument
        </button>
      </fieldset>
      <ErrorNote error={errors[''] ?? errors.arguments} />
      <button type="submit" disabled={busy}>
        Save skill
      </button>
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
