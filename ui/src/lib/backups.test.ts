import { describe, expect, it } from 'vitest';
import type { BackupInfo, DeletedBattle } from '../generated/api';
import { backupLine, daysAgo, deletedLine, restoreQuestion } from './backups';
import { devText } from './words';

const backup = (over: Partial<BackupInfo> = {}): BackupInfo => ({
  id: 'referee-20261123T173005123Z-daily.db',
  taken_at: '2026-11-23T12:30:05Z',
  reason: 'daily',
  battles: 3,
  bytes: 40960,
  ...over,
});

describe('backups in words', () => {
  it('names a backup by its day, time, reason and battles — never its file', () => {
    const line = backupLine(backup());
    expect(line).toMatch(/23 November 2026, \d\d:\d\d — the day’s first change · 3 battles$/);
    expect(line).not.toContain('referee-');
    expect(line).not.toContain('.db');
    expect(backupLine(backup({ reason: 'before_restore', battles: 1 }))).toContain('before a backup was restored · 1 battle');
    expect(backupLine(backup({ battles: null }))).toContain('cannot be read');
  });

  it('counts the days since a deletion', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(daysAgo('2026-11-23T08:00:00Z', now)).toBe('today');
    expect(daysAgo('2026-11-22T08:00:00Z', now)).toBe('yesterday');
    expect(daysAgo('2026-11-13T08:00:00Z', now)).toBe('10 days ago');
    // Times are the table's local time: the test's instants sit at midday UTC, the same date
    // from UTC−11 to UTC+11.
  });

  it('says until when a deleted battle can come back', () => {
    const d: DeletedBattle = {
      battle: { id: 4, name: 'Cannae', ruleset: 'itacs', fingerprint: 'f', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z', events: 3 },
      deleted_at: '2026-11-22T12:00:00.000Z',
      kept_until: '2026-12-22T12:00:00.000Z',
    };
    expect(deletedLine(d, new Date('2026-11-23T12:00:00Z'))).toBe('Deleted yesterday · can be restored until 22 December');
  });

  it('asks before a restore, in words with no developer text', () => {
    const q = restoreQuestion(backup());
    expect(q).toContain('kept as a backup first');
    expect(devText(q)).toBeUndefined();
    expect(devText(backupLine(backup({ reason: 'before_schema' })))).toBeUndefined();
  });
});
