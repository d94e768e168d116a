/**
 * A bot's skills on its tab (SPEC B3, issue 19): each with its arguments, a preview rendered
 * by the API (`POST …/skills/{name}/render`, what `prompts/get` answers) from values filled
 * in here, edited in {@link SkillForm}, deleted after a confirmation; a new one added.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Skill } from '../api-types.js';
import { useLoad } from '../use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';
import { SkillForm } from './skill-form.js';

/** Fill the skill's arguments and see the text it renders. */
function SkillPreview({ api, slug, skill }: { api: ApiClient; slug: string; skill: Skill }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = `preview-${skill.name}`;
  const render = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setText((await api.renderSkill(slug, skill.name, filled)).text);
    } catch (failure) {
      setText(null);
      setError((failure as Error).message);
    }
  };
  return (
    <form class="skill-preview" onSubmit={render} aria-label={`Preview ${skill.name}`}>
      {skill.arguments.map((arg) => (
        <div class="field" key={arg.name}>
          <label for={`${key}-${arg.name}`}>
            {arg.name}
            {arg.required && <span class="required"> (required)</span>}
            {arg.description && <span class="note"> — {arg.description}</span>}
          </label>
          {arg.values?.length ? (
            <select
              id={`${key}-${arg.name}`}
              value={values[arg.name] ?? ''}
              onChange={(e) => setValues({ ...values, [arg.name]: e.currentTarget.value })}
            >
              <option value="">(none)</option>
              {arg.values.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
          ) : (
            <input
              type="text"
              id={`${key}-${arg.name}`}
              value={values[arg.name] ?? ''}
              onInput={(e) => setValues({ ...values, [arg.name]: e.currentTarget.value })}
            />
          )}
        </div>
      ))}
      <button type="submit">Render preview</button>
      <ErrorNote error={error} />
      {text !== null && (
        <pre class="json skill-text" data-preview={skill.name}>
          {text}
        </pre>
      )}
    </form>
  );
}

/** The skills of bot `slug`. */
export function BotSkills({ api, slug }: { api: ApiClient; slug: string }) {
  const skills = useLoad(async () => (await api.skills(slug)).skills, [slug]);
  const names = skills.data?.map((s) => s.name) ?? [];
  // The skill whose form is open: a name, `''` for a new one, null for none.
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = () => {
    setEditing(null);
    skills.reload();
  };
  const remove = async (name: string) => {
    setError(null);
    try {
      await api.deleteSkill(slug, name);
    } catch (failure) {
      setError(`Could not delete ${name}: ${(failure as Error).message}`);
    }
    skills.reload();
  };
  return (
    <section aria-labelledby="bot-skills-title" class="content-section">
      <h2 id="bot-skills-title">Skills ({skills.data?.length ?? '…'})</h2>
      <ErrorNote error={error ?? skills.error} />
      {skills.data?.length === 0 && <p class="note">None.</p>}
      <ul class="listing items">
        {skills.data?.map((skill) => (
          <li key={skill.name} data-skill={skill.name}>
            {editing === skill.name ? (
              <SkillForm
                api={api}
                slug={slug}
                skill={skill}
                taken={names}
                onSaved={saved}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <code>{skill.name}</code>
                {skill.description && <span class="prose"> — {skill.description}</span>}
                <span class="item-actions">
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Edit skill ${skill.name}`}
                    onClick={() => setEditing(skill.name)}
                  >
                    Edit skill
                  </button>
                  <ConfirmButton
                    label="Delete skill"
                    what={skill.name}
                    question={`Delete ${skill.name}?`}
                    onConfirm={() => remove(skill.name)}
                  />
                </span>
                <details>
                  <summary>Template and preview</summary>
                  <pre class="json">{skill.template}</pre>
                  <SkillPreview api={api} slug={slug} skill={skill} />
                </details>
              </>
            )}
          </li>
        ))}
      </ul>
      {editing === '' ? (
        <SkillForm api={api} slug={slug} taken={names} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" onClick={() => setEditing('')}>
          New skill
        </button>
      )}
    </section>
  );
}
