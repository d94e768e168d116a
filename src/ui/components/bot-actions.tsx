/**
 * What can be done to a bot as a whole, at the top of its tab: **Edit** its profile, **Give
 * it a profile** when it has only a view in the config file, and **Delete**, which asks once
 * more, then deletes it from both places (`DELETE /api/bots/{slug}?withView=true`: profile,
 * memories, skills, workflows, chats, tokens and view) and goes back to the bots list.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot } from '../api-types.js';
import { hrefOf } from '../use-route.js';
import { BotForm } from './bot-form.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';

/** The buttons, and the form while one of them opened it; `onChanged` gets the bot as saved. */
export function BotActions({ api, bot, onChanged }: { api: ApiClient; bot: Bot; onChanged: (bot: Bot) => void }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = () => {
    setError(null);
    api.deleteBot(bot.slug).then(
      () => {
        location.hash = hrefOf({ page: 'bots' });
      },
      (failure: Error) => setError(`Could not delete ${bot.slug}: ${failure.message}`),
    );
  };
  if (editing)
    return (
      <BotForm
        api={api}
        profile={bot.profile ?? undefined}
        slug={bot.slug}
        onCancel={() => setEditing(false)}
        onSaved={(saved) => {
          setEditing(false);
          onChanged(saved);
        }}
      />
    );
  return (
    <div class="bot-actions">
      <button type="button" onClick={() => setEditing(true)}>
        {bot.profile ? 'Edit profile' : 'Give it a profile'}
      </button>
      <ConfirmButton
        label="Delete bot"
        question={`Delete ${bot.slug}${bot.profile ? ' with its memories, skills, workflows and chats' : ''}?`}
        onConfirm={remove}
      />
      <ErrorNote error={error} />
    </div>
  );
}
