import { describe, expect, it } from 'vitest';
import { forgetUnsavedExcept, pageHasUnsavedChanges as hasUnsavedChanges, registerUnsavedCheck, unregisterUnsavedCheck } from './unsavedChanges';

describe('unsaved changes per tab', () => {
  it('asks each open form of the tab, and forgets a form once it closes', () => {
    let dirty = false;
    const clean = () => false;
    const form = () => dirty;
    registerUnsavedCheck('/a', clean);
    registerUnsavedCheck('/a', form);
    expect(hasUnsavedChanges('/a')).toBe(false);
    dirty = true;
    expect(hasUnsavedChanges('/a')).toBe(true);
    expect(hasUnsavedChanges('/b')).toBe(false);
    unregisterUnsavedCheck('/a', form);
    expect(hasUnsavedChanges('/a')).toBe(false);
  });

  it('forgets the forms of a closed tab', () => {
    registerUnsavedCheck('/c', () => true);
    registerUnsavedCheck('/d', () => true);
    forgetUnsavedExcept(['/d']);
    expect(hasUnsavedChanges('/c')).toBe(false);
    expect(hasUnsavedChanges('/d')).toBe(true);
  });
});
