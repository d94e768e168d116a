/**
 * A running call's progress as its upstream reports it: a bar when the total is known (and
 * a busy one until the first report), and "3 of 10: message" in words.
 * @module
 */
import type { ToolCallProgress } from '../api-types.js';

/** What `progress` says in words: `3 of 10: copying`, `3: copying`, or `running…` before any. */
export function progressText(progress: ToolCallProgress | null): string {
  if (!progress) return 'running…';
  const count = progress.total === undefined ? `${progress.progress}` : `${progress.progress} of ${progress.total}`;
  return progress.message ? `${count}: ${progress.message}` : count;
}

/** The bar and the words; `label` names what runs. */
export function CallProgress({ progress, label }: { progress: ToolCallProgress | null; label: string }) {
  const text = progressText(progress);
  const total = progress?.total;
  return (
    <div class="call-progress">
      {/* Without a total the bar has no value: the browser shows it as busy. */}
      <progress
        aria-label={`${label}: ${text}`}
        {...(total !== undefined && total > 0 && progress
          ? { max: total, value: Math.min(progress.progress, total) }
          : {})}
      />
      <span class="note" aria-live="polite">
        {text}
      </span>
    </div>
  );
}
