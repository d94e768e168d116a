/**
 * How to connect with a new token: a select of clients and the chosen one's snippet, in a
 * <pre> with a Copy button (issue 19, tokens). Shown with the token, so it is shown once too.
 * @module
 */
import { useState } from 'preact/hooks';
import { connectSnippets } from '../connect-snippets.js';
import { CopyButton } from './copy-button.js';

/** The snippets for `token` (bound to `bot`, if any), on this page's origin. */
export function ConnectSnippets({ token, bot }: { token: string; bot?: string | undefined }) {
  const snippets = connectSnippets({ origin: location.origin, token, bot });
  const [client, setClient] = useState(snippets[0]?.client ?? '');
  const shown = snippets.find((snippet) => snippet.client === client) ?? snippets[0];
  if (!shown) return null;
  return (
    <div class="connect">
      <div class="field">
        <label for="connect-client">Connect with</label>
        <select
          id="connect-client"
          aria-describedby="connect-where"
          value={client}
          onChange={(e) => setClient(e.currentTarget.value)}
        >
          {snippets.map((snippet) => (
            <option key={snippet.client} value={snippet.client}>
              {snippet.label}
            </option>
          ))}
        </select>
        <span id="connect-where" class="note">
          {shown.where}
        </span>
      </div>
      <pre id="connect-snippet" data-client={shown.client}>
        {shown.text}
      </pre>
      <CopyButton text={shown.text} target="connect-snippet" label="Copy snippet" />
    </div>
  );
}
