import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../generated/api';
import { ofTurn, takenBackAfter, turnsOf } from './log';

const entry = (seq: number, turn: number, kind: string, over: Partial<LogEntry> = {}): LogEntry => ({
  seq, turn, kind, at: '2026-11-21T10:00:00Z', text: `event ${seq}`, undone: false, edited: false, changes: [],
  undoable: !['created', 'turn_advanced', 'undone', 'redone', 'undone_to'].includes(kind), ...over,
});

const log = [
  entry(1, 1, 'created'),
  entry(2, 1, 'unit_added'),
  entry(3, 1, 'applied'),
  entry(4, 2, 'turn_advanced'),
  entry(5, 2, 'applied'),
  entry(6, 2, 'applied', { undone: true, undoable: false }),
  entry(7, 2, 'undone'),
  entry(8, 3, 'turn_advanced'),
  entry(9, 3, 'adjusted'),
];

describe('the log by turn', () => {
  it('lists the turns its entries fall in, once each, in order', () => {
    expect(turnsOf(log)).toEqual([1, 2, 3]);
    expect(turnsOf([])).toEqual([]);
  });
  it('shows one turn’s entries, or all of them', () => {
    expect(ofTurn(log, 2).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    expect(ofTurn(log, 9)).toEqual([]);
    expect(ofTurn(log, undefined)).toHaveLength(log.length);
  });
});

describe('undo back to an entry', () => {
  it('takes back every change after it still in force, and leaves turn changes and undos', () => {
    expect(takenBackAfter(log, 3).map((e) => e.seq)).toEqual([5, 9]);
    expect(takenBackAfter(log, 1).map((e) => e.seq)).toEqual([2, 3, 5, 9]);
    expect(takenBackAfter(log, 9)).toEqual([]);
  });
});
