import { describe, expect, it } from 'vitest';
import { DOUBLE_TAP_MS, secondOfDoubleTap } from './taps';

describe('a double tap on a quick edit', () => {
  const formed = { label: 'Form square', at: 1000 };
  const row = ['+D', '−D', 'Leave square'];
  it('ignores its second tap landing on the button that replaced the first', () => {
    expect(secondOfDoubleTap(formed, 'Leave square', 1000 + 150, row)).toBe(true);
  });
  it('takes a tap on another button once the double-tap time has passed', () => {
    expect(secondOfDoubleTap(formed, 'Leave square', 1000 + DOUBLE_TAP_MS, row)).toBe(false);
  });
  it('takes two buttons still on the row, or the same one twice, as two changes', () => {
    expect(secondOfDoubleTap({ label: '+D', at: 1000 }, 'Break', 1100, ['+D', '−D', 'Break'])).toBe(false);
    expect(secondOfDoubleTap({ label: '+D', at: 1000 }, '+D', 1100, ['+D', '−D'])).toBe(false);
    expect(secondOfDoubleTap(undefined, 'Form square', 1000, row)).toBe(false);
  });
});
