import { describe, expect, it } from 'vitest';
import type { Outcome } from '../generated/api';
import { fileName, resultText, savedSaid } from './share';

describe('sharing', () => {
  it('names a file after the battle, without characters a file system refuses', () => {
    expect(fileName('Hastings: 1066 / replay', 'html')).toBe('Hastings 1066  replay.html');
    expect(fileName('???', 'txt')).toBe('battle.txt');
  });
  it('says where a save went, or that nothing was saved when no place was chosen', () => {
    const where = 'The battle report is saved as “Hastings.html” in the folder “Reports”: open it in a browser to print it or save it as PDF.';
    expect(savedSaid('report', where)).toBe(where);
    expect(savedSaid('report', null)).toBe('The battle report was not saved: no place was chosen.');
    expect(savedSaid('log', null)).toBe('The log was not saved: no place was chosen.');
  });
  it('puts a result in one line of text', () => {
    const o = { dice: [4, 3], roll: 4, modified: 8, result: 'pursue/destroyed', meaning: 'Kn 1 8 against Fyrd 1 7: Kn 1 pursues; Fyrd 1 is destroyed', effects: [], sides: [{ label: 'Kn 1', die: 4, modifier: 4, total: 8 }, { label: 'Fyrd 1', die: 3, modifier: 4, total: 7 }] } as Outcome;
    expect(resultText('Normans: Kn 1 against Saxons: Fyrd 1', 'Close combat', o, 0)).toBe(
      'Close combat — Normans: Kn 1 against Saxons: Fyrd 1: Kn 1 4 + 4 = 8 · Fyrd 1 3 + 4 = 7. Kn 1 8 against Fyrd 1 7: Kn 1 pursues; Fyrd 1 is destroyed.',
    );
  });
});
