// The bar's Undo beside "Applied ✓": a double tap's second tap, landing on Undo as it takes
// Apply's place, does nothing; a bar shown anew over a result applied earlier takes a tap at once.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { Resolution } from '../generated/api';
import StickyBar from './StickyBar.svelte';

function props(applied: boolean) {
  return {
    resolution: undefined, faces: [], owners: { a: 'A', b: 'B' }, rolled: false, applied, canUndoApplied: true, undoLabel: 'Undo: Melee', busy: false, appRolls: false,
    onroll: vi.fn(), onapply: vi.fn(), onundo: vi.fn(), ontable: vi.fn(),
  };
}

describe('the bar’s Undo', () => {
  it('ignores a tap in the moment Apply turns into Applied ✓', async () => {
    const p = props(false);
    const { rerender } = render(StickyBar, p);
    await rerender({ ...p, applied: true });
    await fireEvent.click(screen.getByRole('button', { name: 'Undo: Melee' }));
    expect(p.onundo).not.toHaveBeenCalled();
  });

  it('takes a tap at once when the bar opens over a result applied earlier', async () => {
    const p = props(true);
    render(StickyBar, p);
    await fireEvent.click(screen.getByRole('button', { name: 'Undo: Melee' }));
    expect(p.onundo).toHaveBeenCalledTimes(1);
  });

  it('keeps Apply waiting while a field of the situation is typed wrong, and says why beside it', async () => {
    // A result without dice: Apply is ready at once, unless a field waits.
    const resolution = { dice: '', faces: [], distribution: [], in_turn: false } as unknown as Resolution;
    const p = { ...props(false), resolution };
    const { rerender } = render(StickyBar, p);
    expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();
    await rerender({ ...p, waiting: 'Correct the field marked in red first: the odds shown are for what it held before.' });
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    expect(document.querySelector('#apply-waiting')).toHaveTextContent('Correct the field marked in red first');
    await fireEvent.click(apply);
    expect(p.onapply).not.toHaveBeenCalled();
  });
});

describe('the bar’s summary', () => {
  it('says why the situation is refused where the odds would be, not to pick the units', () => {
    render(StickyBar, { ...props(false), refused: 'A wall hex is attacked only from a ladder, a siege tower or an adjacent wall hex.' });
    expect(screen.getByText('A wall hex is attacked only from a ladder, a siege tower or an adjacent wall hex.')).toBeInTheDocument();
    expect(screen.queryByText('Pick the units, then the odds show here.')).toBeNull();
  });
});

describe('the bar before anything shows', () => {
  it('asks for units in a fight, and what is asked in a step of the battle', async () => {
    const p = { ...props(false), onapply: undefined };
    const { rerender } = render(StickyBar, p);
    expect(document.querySelector('#bar-hint')).toHaveTextContent('Pick the units, then the odds show here.');
    await rerender({ ...p, hint: 'Fill in what is asked above, then the result shows here.' });
    expect(document.querySelector('#bar-hint')).toHaveTextContent('Fill in what is asked above, then the result shows here.');
  });
});
