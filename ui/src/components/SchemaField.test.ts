// A situation form from a schema: labelled inputs in words with the rule's description as hint,
// values shown, lists with add and remove, optional fields at their default folded under "More".
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { morale } from '../test-fixtures';
import SchemaField from './SchemaField.svelte';

function props(value: unknown) {
  return {
    name: '', schema: morale, root: morale, value, path: [], lists: {}, worths: {}, invalid: undefined,
    onset: vi.fn(), onadd: vi.fn(), onremove: vi.fn(), onbad: vi.fn(),
  };
}

describe('the situation form', () => {
  it('renders labelled inputs in words, with the value, and sends what is changed by path', async () => {
    const p = props({ events: [{ kind: 'banner_fall', to: 'b', count: 2 }], track: -3 });
    render(SchemaField, p);
    const track = screen.getByLabelText(/Track/) as HTMLInputElement;
    expect(track.value).toBe('-3');
    expect(screen.getByText('The track now: positive in player A’s favour.')).toBeInTheDocument();
    const kind = document.querySelector('#f-events\\.0\\.kind') as HTMLSelectElement;
    expect(kind.value).toBe('banner_fall');
    expect([...kind.options].map((o) => o.textContent)).toEqual(['An enemy unit eliminated', 'Banner fall']);
    await fireEvent.input(track, { target: { value: '2' } });
    expect(p.onset).toHaveBeenCalledWith(['track'], 2);
    await fireEvent.click(screen.getByRole('button', { name: '+ event' }));
    expect(p.onadd).toHaveBeenCalledWith(['events']);
    await fireEvent.click(screen.getByRole('button', { name: 'Remove event 1' }));
    expect(p.onremove).toHaveBeenCalledWith(['events', 0]);
  });

  it('names a list the fight names by its words, its items and its add button too (a GTS side by its army)', () => {
    const schema = { type: 'object', required: ['side_a'], properties: { side_a: { type: 'array', items: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } };
    render(SchemaField, { ...props({ side_a: [{ label: 'Hoplites' }] }), schema, root: schema, titles: { side_a: 'Spartans' } });
    expect(document.body.textContent).toContain('Spartans · 1');
    expect(document.body.textContent).not.toContain('Side A');
    expect(screen.getByRole('button', { name: '+ Spartans' })).toBeInTheDocument();
  });

  it('shows a fixed field without letting it be typed in: a move’s hexes read from the roster', () => {
    const schema = { type: 'object', required: ['path'], properties: { path: { type: 'array', items: { type: 'object', required: ['label', 'terrain'], properties: { label: { type: 'string' }, terrain: { type: 'string' } } } } } };
    const p = { ...props({ path: [{ label: '20.05', terrain: 'clear' }] }), schema, root: schema, fixed: new Set(['path.label']) };
    render(SchemaField, p);
    const label = document.querySelector('#f-path\\.0\\.label') as HTMLInputElement;
    const terrain = document.querySelector('#f-path\\.0\\.terrain') as HTMLInputElement;
    expect(label.value).toBe('20.05');
    expect(label.readOnly).toBe(true);
    expect(terrain.readOnly).toBe(false);
  });

  it('offers no adding nor removing on a fixed list: a move’s hexes are the line typed', () => {
    const schema = { type: 'object', required: ['path'], properties: { path: { type: 'array', items: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } };
    render(SchemaField, { ...props({ path: [{ label: '20.05' }] }), schema, root: schema, fixed: new Set(['path', 'path.label']) });
    expect(screen.queryByRole('button', { name: '+ path' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove path 1' })).toBeNull();
    expect((document.querySelector('#f-path\\.0\\.label') as HTMLInputElement).value).toBe('20.05');
  });

  it('leaves out a choice asked only up front, as chips: an attack from a wall hex', () => {
    const schema = { type: 'object', properties: { attack_from: { type: 'string', enum: ['ground', 'wall'], default: 'ground' }, rear: { type: 'boolean', default: false } } };
    render(SchemaField, { ...props({}), schema, root: schema, upFront: new Set(['attack_from']) });
    expect(document.querySelector('#f-attack_from')).toBeNull();
    expect(document.querySelector('#f-rear')).not.toBeNull();
  });

  it('folds optional fields left at their default under “Other situations”', () => {
    render(SchemaField, props({ events: [] }));
    const more = document.querySelector('details.more')!;
    expect(more.querySelector('summary')).toHaveTextContent('Other situations (3)');
    expect(more.querySelector('#f-track')).not.toBeNull();
  });

  it('shows a box the situation leaves out as its default: on where the schema says so', () => {
    // A DBMM rear support is of the same command unless said otherwise (p. 36).
    const support: Record<string, unknown> = {
      type: 'object',
      properties: { same_command: { type: 'boolean', default: true }, army_list_permits: { type: 'boolean' } },
    };
    render(SchemaField, { ...props({}), schema: support, root: support });
    expect((document.querySelector('[data-path="same_command"]') as HTMLInputElement).checked).toBe(true);
    expect((document.querySelector('[data-path="army_list_permits"]') as HTMLInputElement).checked).toBe(false);
  });

  it('refuses a number that is not the field’s beside it, as typed, and sends nothing until it is right', async () => {
    const p = props({ events: [{ kind: 'elimination', to: 'a', count: 1 }], track: 0 });
    render(SchemaField, p);
    const count = document.querySelector('#f-events\\.0\\.count') as HTMLInputElement;
    for (const bad of ['-5', '2.5', '99999999999', '-', 'abc']) {
      await fireEvent.input(count, { target: { value: bad } });
      expect(document.querySelector('#f-events\\.0\\.count-error')).toHaveTextContent('Count must be a whole number from 0 to 10,000.');
      expect(count.value).toBe(bad);
      expect(count).toHaveAttribute('aria-invalid', 'true');
    }
    expect(p.onset).not.toHaveBeenCalled();
    expect(p.onbad).toHaveBeenLastCalledWith('events.0.count', 'Count must be a whole number from 0 to 10,000.');
    await fireEvent.input(count, { target: { value: '2' } });
    expect(p.onset).toHaveBeenCalledWith(['events', 0, 'count'], 2);
    expect(p.onbad).toHaveBeenLastCalledWith('events.0.count', undefined);
    expect(document.querySelector('#f-events\\.0\\.count-error')).toBeNull();
    // Left empty, a field with a default takes it (the key left out), never a refusal.
    await fireEvent.input(count, { target: { value: '' } });
    expect(p.onset).toHaveBeenLastCalledWith(['events', 0, 'count'], undefined);
  });

  it('takes a list of numbers as it is typed, each checked', async () => {
    const p = props({ events: [], contact_movement: [] });
    render(SchemaField, p);
    const list = document.querySelector('#f-contact_movement') as HTMLInputElement;
    await fireEvent.input(list, { target: { value: '3, ' } });
    expect(p.onset).toHaveBeenLastCalledWith(['contact_movement'], [3]);
    expect(list.value).toBe('3, ');
    await fireEvent.input(list, { target: { value: '3, 2.5' } });
    expect(document.querySelector('#f-contact_movement-error')).toHaveTextContent('Contact movement (each) must be a whole number from -10,000 to 10,000.');
    expect(p.onset).toHaveBeenCalledTimes(1);
  });
});
