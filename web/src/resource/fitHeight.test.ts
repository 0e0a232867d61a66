import { describe, expect, it } from 'vitest';
import { fitBodyHeight, MIN_BODY_HEIGHT } from './fitHeight';

describe('fitBodyHeight', () => {
  it('fills the window from the body\'s top down to the pager and the paddings below it', () => {
    expect(fitBodyHeight({ viewport: 900, bodyTop: 320, belowBody: 88, bottomGap: 16 })).toBe(476);
  });

  it('does not depend on the document\'s scroll offset (the top is in document coordinates)', () => {
    const m = { viewport: 720, bodyTop: 300.6, belowBody: 80.2, bottomGap: 16 };
    expect(fitBodyHeight(m)).toBe(Math.floor(720 - 300.6 - 80.2 - 16));
  });

  it('never goes below the minimum: in a tiny window the document scrolls instead', () => {
    expect(fitBodyHeight({ viewport: 400, bodyTop: 320, belowBody: 88, bottomGap: 16 })).toBe(MIN_BODY_HEIGHT);
    expect(fitBodyHeight({ viewport: 400, bodyTop: 320, belowBody: 88, bottomGap: 16 }, 100)).toBe(100);
  });
});
