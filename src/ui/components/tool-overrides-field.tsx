/**
 * A server's tool overrides in the settings form (SPEC D3): one row per tool, named by the
 * upstream's own name (picked from the tools the server lists, or typed: a tool it does not
 * list now), with the name, title and description agents see instead and whether it is
 * hidden from them. Empty texts keep the upstream's own.
 * @module
 */
import { type OverrideRow, rowsOf, rowsText } from '../settings-extras.js';
import { TextField } from './text-field.js';

type Props = {
  value: string | undefined;
  error: string | undefined;
  tools: readonly string[];
  onInput: (value: string) => void;
};

const blank: OverrideRow = { tool: '', name: '', title: '', description: '', hidden: false };

/** The table and its Add button; the API's error for it is one line under it. */
export function ToolOverridesField({ value, error, tools, onInput }: Props) {
  const rows = rowsOf(value);
  const write = (next: OverrideRow[]) => onInput(rowsText(next));
  const change = (i: number, part: Partial<OverrideRow>) =>
    write(rows.map((row, j) => (j === i ? { ...row, ...part } : row)));
  return (
    <fieldset
      class="tool-overrides"
      aria-describedby={error ? 'settings-toolOverrides-error' : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend>Tool overrides: what agents see of a tool</legend>
      <p class="note">
        By the server's own tool name; empty texts keep the server's own. Allowed and denied tools, bot permissions and
        per-tool timeouts keep using the server's names.
      </p>
      <datalist id="settings-override-tools">
        {tools.map((tool) => (
          <option key={tool} value={tool} />
        ))}
      </datalist>
      {rows.map((row, i) => {
        const id = (part: string) => `settings-override-${i}-${part}`;
        return (
          <fieldset key={i} class="override-row">
            <legend>
              Override {i + 1}
              {row.tool ? `: ${row.tool}` : ''}
            </legend>
            <div class="field">
              <label for={id('tool')}>Tool (the server's name)</label>
              <input
                id={id('tool')}
                type="text"
                autocomplete="off"
                list="settings-override-tools"
                value={row.tool}
                onInput={(e) => change(i, { tool: e.currentTarget.value })}
              />
            </div>
            <TextField
              id={id('name')}
              label="Name agents see"
              value={row.name}
              onInput={(v) => change(i, { name: v })}
            />
            <TextField id={id('title')} label="Title" value={row.title} onInput={(v) => change(i, { title: v })} />
            <TextField
              id={id('description')}
              label="Description"
              area
              value={row.description}
              onInput={(v) => change(i, { description: v })}
            />
            <label class="choice">
              <input
                type="checkbox"
                checked={row.hidden}
                onChange={(e) => change(i, { hidden: e.currentTarget.checked })}
              />{' '}
              Hidden from agents
            </label>{' '}
            <button type="button" onClick={() => write(rows.filter((_, j) => j !== i))}>
              Remove override {i + 1}
            </button>
          </fieldset>
        );
      })}
      <button type="button" onClick={() => write([...rows, { ...blank }])}>
        Add a tool override
      </button>
      {error && (
        <span id="settings-toolOverrides-error" class="error field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
