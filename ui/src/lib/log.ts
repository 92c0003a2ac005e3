// The log screen's logic: the turns its entries fall in, one turn's entries, and what undo back to
// an entry takes back. Pure, so it is unit-tested.
import type { LogEntry } from '../generated/api';

/** The turns the entries fall in, in order, each once. */
export function turnsOf(entries: LogEntry[]): number[] {
  return [...new Set(entries.map((e) => e.turn))].sort((a, b) => a - b);
}

/** The entries of one turn; every entry when no turn is chosen. */
export function ofTurn(entries: LogEntry[], turn: number | undefined): LogEntry[] {
  return turn === undefined ? entries : entries.filter((e) => e.turn === turn);
}

/** What undo back to the entry `seq` takes back: every change after it still in force (turn
 * changes, being navigation, stay). */
export function takenBackAfter(entries: LogEntry[], seq: number): LogEntry[] {
  return entries.filter((e) => e.seq > seq && e.undoable);
}
