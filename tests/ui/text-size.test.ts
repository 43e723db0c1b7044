/**
 * The projector mode's zoom: 1.3 where the stage has room, less on a small stage (a 1280×800
 * projector) so the zoomed stage is still one screen; never below 1.1; 1.3 where the page scrolls anyway.
 */
import { describe, expect, it } from 'vitest';
import { LARGE_ZOOM, largeZoom, MIN_LARGE_ZOOM } from '../../src/ui/text-size';

describe('the larger-text zoom', () => {
  it('1.3 on a large screen, about 1.16 at 1280×800, at least 1.1, 1.3 below the stage', () => {
    expect(largeZoom(1920, 1080)).toBe(LARGE_ZOOM);
    expect(largeZoom(1440, 900)).toBe(LARGE_ZOOM);
    const z = largeZoom(1280, 800);
    expect(z).toBeGreaterThan(1.1);
    expect(z).toBeLessThan(1.2);
    // the zoomed stage keeps its layout's width and the height its content needs
    expect(1280 / z).toBeGreaterThanOrEqual(1100);
    expect(800 / z).toBeGreaterThanOrEqual(688);
    expect(largeZoom(1100, 600)).toBe(MIN_LARGE_ZOOM);
    expect(largeZoom(768, 1024)).toBe(LARGE_ZOOM);
    expect(largeZoom(390, 844)).toBe(LARGE_ZOOM);
  });
});
