import { describe, expect, it } from 'vitest';
import { DOUBLE_TAP_MS, secondOfDoubleTap } from './taps';

describe('a double tap on a quick edit', () => {
  const formed = { label: 'Form square', at: 1000 };
  it('ignores its second tap landing on the button that replaced the first', () => {
    expect(secondOfDoubleTap(formed, 'Leave square', 1000 + 150)).toBe(true);
  });
  it('takes a tap on another button once the double-tap time has passed', () => {
    expect(secondOfDoubleTap(formed, 'Leave square', 1000 + DOUBLE_TAP_MS)).toBe(false);
  });
  it('takes the same button tapped twice as two changes, and a first tap always', () => {
    expect(secondOfDoubleTap({ label: '+D', at: 1000 }, '+D', 1100)).toBe(false);
    expect(secondOfDoubleTap(undefined, 'Form square', 1000)).toBe(false);
  });
});
