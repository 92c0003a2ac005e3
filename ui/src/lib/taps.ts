// A double tap on a row's quick edit: its second tap may land on the button that took the first
// one's place ("Form square" becomes "Leave square"), which would take the change straight back.

/** How soon after a tap a tap on the button that replaced it is the same gesture, in ms. */
export const DOUBLE_TAP_MS = 600;

/** The last quick edit tapped on a row: its label and when. */
export interface LastTap {
  label: string;
  at: number;
}

/** Whether a tap is the second of a double tap that landed on the button replacing the first:
 * the first one's button is gone from the row (`shown`: the row's quick edits now) and the tap
 * comes within the double-tap time. The same button tapped again (+D twice), or another one
 * beside a button still shown, is a change of its own. */
export function secondOfDoubleTap(last: LastTap | undefined, label: string, at: number, shown: string[]): boolean {
  return !!last && last.label !== label && !shown.includes(last.label) && at - last.at < DOUBLE_TAP_MS;
}
