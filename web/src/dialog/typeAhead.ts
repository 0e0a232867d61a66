/**
 * What is typed while a dialog is on its way (its code still loading, its record still being read) lands in its
 * first field once that field has the focus, instead of being lost on the page behind.
 */
const HOLD_MS = 5000;

let held: string | null = null;
let stopHolding: (() => void) | null = null;

function onKeyDown(e: KeyboardEvent): void {
  // printable characters only: Esc, Tab, Enter and shortcuts keep their meaning
  if (held === null || e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  held += e.key;
  e.preventDefault();
  e.stopPropagation();
}

/** Starts holding the characters typed, until `typeAheadInto` (or a few seconds pass). */
export function holdTypeAhead(): void {
  stopHolding?.();
  held = '';
  window.addEventListener('keydown', onKeyDown, true);
  const timer = window.setTimeout(() => stopHolding?.(), HOLD_MS);
  stopHolding = () => {
    window.removeEventListener('keydown', onKeyDown, true);
    window.clearTimeout(timer);
    held = null;
    stopHolding = null;
  };
}

/** Stops holding and types what was held into the focused field `el` (nothing when it does not have the focus). */
export function typeAheadInto(el: Element | null): void {
  const text = held;
  stopHolding?.();
  if (!text || !(el instanceof HTMLElement) || document.activeElement !== el) return;
  // as if typed: the field's own input handling (React's) sees it
  document.execCommand('insertText', false, text);
}
