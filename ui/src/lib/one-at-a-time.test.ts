import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time';

describe('a command run one at a time', () => {
  it('lets a second tap go while the first is answered, and runs the next tap after', async () => {
    const run = oneAtATime();
    let calls = 0;
    let answer: (v: string) => void = () => {};
    const slow = () => {
      calls += 1;
      return new Promise<string>((resolve) => (answer = resolve));
    };
    const first = run(slow);
    const second = await run(slow); // the double tap
    expect(second).toEqual({ ran: false });
    answer('applied');
    expect(await first).toEqual({ ran: true, value: 'applied' });
    expect(calls).toBe(1);
    // Answered, the next tap is a command of its own.
    const third = run(async () => 'again');
    expect(await third).toEqual({ ran: true, value: 'again' });
  });

  it('is free again after a refusal', async () => {
    const run = oneAtATime();
    await expect(run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await run(async () => 1)).toEqual({ ran: true, value: 1 });
  });
});
