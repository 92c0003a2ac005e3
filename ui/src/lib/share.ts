// Sharing what the app knows: a file saved as a download, text copied to the clipboard, a result
// as one line of text. The words are pure and unit-tested; the browser calls are thin.
import type { Outcome, SharedDocument } from '../generated/api';
import { throwLine } from './result';
import { sentence } from './words';

/** What the screen says after a save: where it went (the core's words), or that nothing was saved
 * when the umpire closed the dialog without choosing a place. */
export function savedSaid(what: SharedDocument, where: string | null): string {
  if (where) return where;
  return what === 'report' ? 'The battle report was not saved: no place was chosen.' : 'The log was not saved: no place was chosen.';
}

/** A file name from a battle's name: letters, digits, spaces, dashes; never empty. */
export function fileName(name: string, extension: string, fallback = 'battle'): string {
  return `${name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || fallback}.${extension}`;
}

/** Saves text as a download (the user's downloads folder, or the save dialog the system shows). */
export function saveText(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** Copies text to the clipboard; false when the system refuses (the caller then shows it). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A result as one line to paste in a chat: who against whom, the throw, the result. */
export function resultText(fight: string, action: string, o: Outcome, totalModifier: number): string {
  const head = [action, fight].filter(Boolean).join(' — ');
  return `${head}: ${throwLine(o, totalModifier)}. ${sentence(o.meaning || o.result)}`;
}
