/**
 * A server's allowed and denied tools in the settings form: the tools the server lists,
 * ticked or not, and a field for names it does not list now (a server not connected, a tool
 * it will add). The allow list is either absent (every tool) or the names ticked.
 * @module
 */

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

/** Ticks for the listed tools and a field for the others, editing the list `key` (names one a line). */
function NameList({
  tools,
  values,
  errors,
  set,
  id,
  label,
}: Props & { id: 'allowedTools' | 'deniedTools'; label: string }) {
  const names = lines(values[id] ?? '');
  const others = names.filter((n) => !tools.includes(n));
  const write = (next: string[]) => set(id)(next.join('\n'));
  return (
    <>
      {tools.length > 0 && (
        <div class="tool-ticks">
          {tools.map((tool) => (
            <label key={tool} class="choice">
              <input
                type="checkbox"
                checked={names.includes(tool)}
                onChange={(e) => write(e.currentTarget.checked ? [...names, tool] : names.filter((n) => n !== tool))}
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
        value={others.join('\n')}
        error={errors[id]}
        onInput={(text) => write([...names.filter((n) => tools.includes(n)), ...lines(text)])}
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
