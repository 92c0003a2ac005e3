// Backups and recently deleted battles in words: when, why, what they hold. No file name, path or
// code reaches the screen; a backup is named by its time and reason.
import type { BackupInfo, BackupReason, DeletedBattle } from '../generated/api';
import { plural } from './format';

const REASONS: Record<BackupReason, string> = {
  daily: 'the day’s first change',
  before_schema: 'before the app updated the database',
  before_restore: 'before a backup was restored',
  on_demand: 'backed up on request',
};

const DAY = 24 * 60 * 60 * 1000;

/** "Monday 23 November 2026, 17:30", in the table's local time. */
export function dateTime(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return 'at an unknown time';
  const date = d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return `${date}, ${time}`;
}

/** What a backup is: "Monday 23 November 2026, 17:30 — the day’s first change · 3 battles". */
export function backupLine(b: BackupInfo): string {
  const held = b.battles === null ? 'cannot be read' : plural(b.battles, 'battle');
  return `${dateTime(b.taken_at)} — ${REASONS[b.reason]} · ${held}`;
}

/** "today", "yesterday", "3 days ago". */
export function daysAgo(at: string, now: Date): string {
  const days = Math.floor((now.getTime() - new Date(at).getTime()) / DAY);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}

/** "Deleted yesterday · can be restored until 23 December". */
export function deletedLine(d: DeletedBattle, now: Date): string {
  const until = new Date(d.kept_until);
  const day = Number.isNaN(until.getTime()) ? 'for 30 days' : `until ${until.toLocaleDateString('en-GB', { day: 'numeric', month: 'long' })}`;
  return `Deleted ${daysAgo(d.deleted_at, now)} · can be restored ${day}`;
}

/** The question a restore asks before it replaces the battles. */
export function restoreQuestion(b: BackupInfo): string {
  return `Put back the battles as they were on ${dateTime(b.taken_at)}? The battles as they are now are kept as a backup first, so this can be undone by restoring that one.`;
}
