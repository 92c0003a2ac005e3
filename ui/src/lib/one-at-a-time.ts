// A command run one at a time: a second tap while the first is still being answered is the same
// tap twice (a double tap on a phone), not a second command, so it is let go.

/** A runner that runs `call` unless one it started is still under way; answers whether it ran
 * and, if so, what the call answered. */
export function oneAtATime(): <T>(call: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false }> {
  let busy = false;
  return async (call) => {
    if (busy) return { ran: false };
    busy = true;
    try {
      return { ran: true, value: await call() };
    } finally {
      busy = false;
    }
  };
}
