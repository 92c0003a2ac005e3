/** Resolves once the frame with the latest changes has been painted: the next animation frame,
 * then the task after it (the paint happens between the two). Work that can wait a frame — what
 * each box is worth — waits for it, so that the odds a change brings are on screen first. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0));
    else setTimeout(resolve, 0);
  });
}
