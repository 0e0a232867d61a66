import xss from 'xss';

/** Rich text from users: tags and attributes on xss's allow-list only; script and style bodies dropped. */
export function sanitizeHtml(html: string): string {
  return xss(html, { stripIgnoreTagBody: ['script', 'style'] });
}
