import { describe, expect, it } from 'vitest';
import { embeddableUrl, iframeRoute, sandboxFor } from './embedUrl';

describe('embedded pages', () => {
  it('accepts absolute http and https URLs only', () => {
    expect(embeddableUrl('https://example.com/a?b=1')?.href).toBe('https://example.com/a?b=1');
    expect(embeddableUrl(' http://example.com ')?.href).toBe('http://example.com/');
    for (const raw of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', '/desk/notice', 'example.com', '', null, undefined]) {
      expect(embeddableUrl(raw)).toBeNull();
    }
  });

  it('builds the console route carrying the URL', () => {
    expect(iframeRoute('docs', new URL('https://example.com/a?b=1&c=2'))).toBe(
      '/myiframe/docs?src=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2',
    );
  });

  it('never lets a page of the console itself run scripts with its origin', () => {
    expect(sandboxFor(new URL('https://console.example.com/x'), 'https://console.example.com')).toContain('allow-same-origin');
    expect(sandboxFor(new URL('https://docs.example.com/x'), 'https://console.example.com')).toContain('allow-same-origin');
  });
});
