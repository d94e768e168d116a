/**
 * A server's allowed and denied tools in the settings form: the tools the server lists,
 * ticked or not, and a field for names it does not list now (a server not connected, a tool
 * it will add). The allow list is either absent (every tool) or the names ticked.
 * @module
 */

import { useRef } from 'preact/hooks';
import { lines } from '../entry-lines.js';
import type { SettingsValues } from '../settings-patch.js';
import { TextField } from './text-field.js';

type Props = {
  /** The tools the server lists now (empty while it is not connected). */
  tools: readonly string[];
  values: SettingsValues;
  errors: Record<string, string>;
  set: (key: string) => (value: string) => void;
};

/** What a list's ticks and its field hold: the names ticked, and the field's text as typed. */
type Split = { value: string; toolsKey: string; ticked: string[]; others: string };

/** `value` read into ticks for `tools` and the text of the other names. */
function split(value: string, tools: readonly string[]): Split {
  const names = lines(value);
  return {
    value,
    toolsKey: tools.join('\n'),
    ticked: names.filter((n) => tools.includes(n)),
    others: names.filter((n) => !tools.includes(n)).join('\n'),
  };
}

/**
 * Ticks for the listed tools and a field for the others, editing the list `key` (names one a
 * line). The field keeps its text as typed (an empty line, a name half typed): the form's value
 * is the ticked names followed by that text, read into names only when it is saved. It is split
 * afresh only when the value changes from outside (the form reset) or the server's tools do.
 */
function NameList({
  tools,
  values,
  errors,
  set,
  id,
  label,
}: Props & { id: 'allowedTools' | 'deniedTools'; label: string }) {
  const value = values[id] ?? '';
  const held = useRef<Split | null>(null);
  if (!held.current || held.current.value !== value || held.current.toolsKey !== tools.join('\n'))
    held.current = split(value, tools);
  const { ticked, others, toolsKey } = held.current;
  const write = (nextTicked: string[], nextOthers: string) => {
    const next = [...nextTicked, ...(nextOthers ? [nextOthers] : [])].join('\n');
    held.current = { value: next, toolsKey, ticked: nextTicked, others: nextOthers };
    set(id)(next);
  };
  return (
    <>
      {tools.length > 0 && (
        <div class="tool-ticks">
          {tools.map((tool) => (
            <label key={tool} class="choice">
              <input
                type="checkbox"
                checked={ticked.includes(tool)}
                onChange={(e) =>
                  write(
                    tools.filter((t) => (t === tool ? e.currentTarget.checked : ticked.includes(t))),
                    others,
                  )
                }
              />{' '}
              {tool}
            </label>
          ))}
        </div>
      )}
      <TextField
        id={`settings-${id}`}
        label={label}
        area
        hint="one name a line"
        value={others}
        error={errors[id]}
        onInput={(text) => write(ticked, text)}
      />
    </>
  );
}

/** The two lists. */
export function ToolNamesField(props: Props) {
  const { values, set } = props;
  const allowAll = values.allowAll === 'true';
  return (
    <fieldset>
      <legend>Tools agents see</legend>
      <fieldset>
        <legend>Allowed tools</legend>
        {(
          [
            ['true', 'Every tool'],
            ['false', 'Only the tools ticked or named'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="choice">
            <input
              type="radio"
              name="settings-allow"
              value={value}
              checked={values.allowAll === value}
              onChange={() => set('allowAll')(value)}
            />{' '}
            {label}
          </label>
        ))}
        {!allowAll && <NameList {...props} id="allowedTools" label="Other allowed tools" />}
      </fieldset>
      <fieldset>
        <legend>Denied tools (win over the allowed ones)</legend>
        <NameList {...props} id="deniedTools" label="Other denied tools" />
      </fieldset>
    </fieldset>
  );
}
