/**
 * Suggestions for the arguments of a form, asked of the server as the user types (MCP
 * `completion/complete` through the control API): one request per argument once typing
 * pauses, the answer to an older value dropped. Without `ask` (a server that does not
 * declare completions) nothing is asked.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';

/** How long typing pauses before the server is asked. */
const PAUSE_MS = 250;

/** Ask the values for `argument` typed as `value`, the other arguments filled as `context`. */
export type AskSuggestions = (argument: string, value: string, context: Record<string, string>) => Promise<string[]>;

/** The suggestions by argument, and `suggest` to call on each keystroke. */
export function useSuggestions(ask: AskSuggestions | null): {
  suggestions: Readonly<Record<string, readonly string[]>>;
  suggest: (argument: string, value: string, context: Record<string, string>) => void;
} {
  const [suggestions, setSuggestions] = useState<Record<string, readonly string[]>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const tickets = useRef(new Map<string, number>());
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const suggest = (argument: string, value: string, context: Record<string, string>) => {
    if (!ask) return;
    clearTimeout(timers.current.get(argument));
    const ticket = (tickets.current.get(argument) ?? 0) + 1;
    tickets.current.set(argument, ticket);
    timers.current.set(
      argument,
      setTimeout(() => {
        ask(argument, value, context).then(
          (values) => {
            if (tickets.current.get(argument) === ticket) setSuggestions((s) => ({ ...s, [argument]: values }));
          },
          // A failed suggestion is no failure of the form: none are shown.
          () => undefined,
        );
      }, PAUSE_MS),
    );
  };
  return { suggestions, suggest };
}
